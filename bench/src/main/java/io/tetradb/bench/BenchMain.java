package io.tetradb.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code bench/run NAME [--quick]} and {@code bench/run --list}. Exit codes: 0 ok, 1 the benchmark failed, 2 usage. */
@Command(name = "bench/run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a TetraDB benchmark and prints BENCH/RATIO lines.")
public final class BenchMain implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "the benchmark to run (see --list)")
    String name;

    @Option(names = "--quick", description = "smaller sizes and fewer rounds (under 2 minutes)")
    boolean quick;

    @Option(names = "--list", description = "list the benchmarks, one per line, and exit")
    boolean list;

    @Spec
    CommandSpec spec;

    private final List<Benchmark> benchmarks;
    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    BenchMain(List<Benchmark> benchmarks, PrintStream out, PrintStream err, Map<String, String> env) {
        this.benchmarks = benchmarks;
        this.out = out;
        this.err = err;
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        if (list) {
            for (Benchmark b : benchmarks) {
                out.printf("%-10s %s%n", b.name(), b.description());
            }
            out.flush();
            return 0;
        }
        if (name == null) {
            throw new ParameterException(spec.commandLine(), "Missing benchmark NAME; one of: " + names());
        }
        Benchmark b = Benchmarks.find(benchmarks, name).orElseThrow(() -> new ParameterException(
                spec.commandLine(), "Unknown benchmark '" + name + "'; known: " + names()
                + " (bench/run --list describes them)"));
        Report report = new Report(out, err);
        report.note(NativeMemoryNote.of(env));
        b.run(quick, report);
        return 0;
    }

    private String names() {
        return benchmarks.stream().map(Benchmark::name).collect(Collectors.joining(", "));
    }

    /** Runs the command line; returns the exit code. */
    static int execute(List<Benchmark> benchmarks, PrintStream out, PrintStream err, Map<String, String> env,
            String... args) {
        CommandLine cl = new CommandLine(new BenchMain(benchmarks, out, err, env));
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        return cl.execute(args);
    }

    public static void main(String[] args) {
        System.exit(execute(Benchmarks.ALL, System.out, System.err, System.getenv(), args));
    }
}

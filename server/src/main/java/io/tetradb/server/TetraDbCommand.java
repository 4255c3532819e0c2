package io.tetradb.server;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code tetradb} command line. Exit codes: 0 ok, 1 runtime failure, 2 usage error. */
@Command(name = "tetradb", mixinStandardHelpOptions = true, versionProvider = TetraDbCommand.Version.class,
        description = "TetraDB: one partitioned, persistent document store with several faces.",
        subcommands = {StartCommand.class, DevClusterCommand.class, CommandLine.HelpCommand.class})
public final class TetraDbCommand implements Runnable {
    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        int code = commandLine().execute(args);
        io.tetradb.server.logging.ServerLogging.stop(); // the async appender's queued lines written (at most 1 s)
        System.exit(code);
    }

    /** The configured command line, also used by tests to run it in-process. */
    public static CommandLine commandLine() {
        return new CommandLine(new TetraDbCommand());
    }

    @Override
    public void run() {
        // without a subcommand there is nothing to do: a usage error (exit 2), like an unknown option
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = TetraDbCommand.class.getPackage().getImplementationVersion();
            return new String[] {"tetradb " + (v != null ? v : "(development build)")};
        }
    }
}

package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.process.traversal.util.BytecodeHelper;
import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.util.Map;

/**
 * What every request must satisfy before a processor sees it: an op and a processor name (a missing one used to
 * leave the request unanswered), a positive {@code evaluationTimeout} no longer than the server's (a client may ask
 * for less time, not more), and, for bytecode, no lambdas and no removal of {@link NoServerFilesStrategy} or
 * {@link InterruptibleRepeatStrategy}.
 */
public final class RequestChecks {
    private RequestChecks() {
    }

    /** The request to run (its timeout capped at {@code limitMillis}), or the error that answers it. */
    public static Checked check(RequestMessage msg, long limitMillis) {
        if (msg.getOp() == null || msg.getOp().isBlank()) {
            return refuse(msg, ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST, "the request has no op");
        }
        if (msg.getProcessor() == null) {
            return refuse(msg, ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST, "the request has no processor");
        }
        Map<String, Object> args = msg.getArgs();
        if (args == null) {
            return refuse(msg, ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST, "the request has no args");
        }
        if (args.get(Tokens.ARGS_GREMLIN) instanceof Bytecode bytecode) {
            if (BytecodeHelper.getLambdaLanguage(bytecode).isPresent()) {
                return refuse(msg, ResponseStatusCode.SERVER_ERROR_EVALUATION,
                        "lambdas are not supported in traversals");
            }
            if (removesServerStrategies(bytecode)) {
                return refuse(msg, ResponseStatusCode.REQUEST_ERROR_INVALID_REQUEST_ARGUMENTS,
                        "the server's own strategies cannot be removed");
            }
        }
        if (args.containsKey(Tokens.ARGS_EVAL_TIMEOUT)) {
            if (!(args.get(Tokens.ARGS_EVAL_TIMEOUT) instanceof Number timeout) || timeout.longValue() <= 0) {
                return refuse(msg, ResponseStatusCode.REQUEST_ERROR_INVALID_REQUEST_ARGUMENTS,
                        Tokens.ARGS_EVAL_TIMEOUT + " must be a positive number of milliseconds");
            }
            if (timeout.longValue() > limitMillis) {
                return new Checked(RequestMessage.from(msg).addArg(Tokens.ARGS_EVAL_TIMEOUT, limitMillis).create(), null);
            }
        }
        return new Checked(msg, null);
    }

    private static boolean removesServerStrategies(Bytecode bytecode) {
        for (Bytecode.Instruction i : bytecode.getSourceInstructions()) {
            if (i.getOperator().equals("withoutStrategies")) {
                for (Object a : i.getArguments()) {
                    if (a == NoServerFilesStrategy.class || a == InterruptibleRepeatStrategy.class) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static Checked refuse(RequestMessage msg, ResponseStatusCode code, String message) {
        return new Checked(null, ResponseMessage.build(msg.getRequestId()).code(code).statusMessage(message).create());
    }

    /** Either the request to run or the answer that refuses it. */
    public record Checked(RequestMessage request, ResponseMessage refusal) {
    }
}

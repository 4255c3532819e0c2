package io.tetradb.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One browser tab over the Chrome DevTools protocol (a WebSocket carrying JSON commands, answers and events): load a
 * URL, run JavaScript in the page, wait for a condition in the page, and collect the page's uncaught errors.
 */
public final class DevToolsPage implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a DevTools command or event is waited for: only a hung browser takes that long. */
    private static final long COMMAND_TIMEOUT_SECONDS = TestTime.patience(java.time.Duration.ofSeconds(60)).toSeconds();

    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<JsonNode>> awaitedEvents = new ConcurrentHashMap<>();
    private final List<String> pageErrors = Collections.synchronizedList(new ArrayList<>());
    private WebSocket socket;

    private DevToolsPage() {
    }

    static DevToolsPage connect(URI webSocketUrl) throws Exception {
        DevToolsPage page = new DevToolsPage();
        page.socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(webSocketUrl, page.new Listener()).get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        page.send("Page.enable", JSON.createObjectNode());
        page.send("Runtime.enable", JSON.createObjectNode());
        return page;
    }

    /** Loads {@code url} and returns once its load event fired. */
    public void navigate(String url) throws Exception {
        CompletableFuture<JsonNode> loaded = new CompletableFuture<>();
        awaitedEvents.put("Page.loadEventFired", loaded);
        JsonNode r = send("Page.navigate", JSON.createObjectNode().put("url", url));
        if (r.hasNonNull("errorText")) {
            throw new AssertionError("navigating to " + url + " failed: " + r.get("errorText").asText());
        }
        loaded.get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Runs {@code expression} in the page (awaiting a promise) and returns its JSON value; a throw fails. */
    public JsonNode evaluate(String expression) throws Exception {
        JsonNode r = send("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
                .put("awaitPromise", true).put("returnByValue", true));
        if (r.has("exceptionDetails")) {
            JsonNode d = r.get("exceptionDetails");
            throw new AssertionError("in the page: " + d.path("exception").path("description").asText(d.toString()));
        }
        return r.path("result").path("value");
    }

    /**
     * Waits until {@code condition} (a JavaScript expression) is truthy in the page, checking it every 50 ms there,
     * and returns its value; fails with {@code what} after 20 s.
     */
    public JsonNode waitFor(String what, String condition) throws Exception {
        return evaluate("new Promise((resolve, reject) => { const start = Date.now(); (function poll() {"
                + " let v; try { v = (" + condition + "); } catch (e) { v = undefined; }"
                + " if (v) resolve(v); else if (Date.now() - start > 20000) reject(new Error('timed out waiting for: '"
                + " + " + JSON.valueToTree(what) + " + ' — page says: ' + document.body.innerText.slice(0, 2000)));"
                + " else setTimeout(poll, 50); })(); })");
    }

    /** Saves what the page shows as a PNG (for a person to look at; tests assert on the DOM). */
    public void screenshot(java.nio.file.Path file) throws Exception {
        JsonNode r = send("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
        java.nio.file.Files.write(file, java.util.Base64.getDecoder().decode(r.path("data").asText()));
    }

    /** Uncaught exceptions and console errors the page reported so far. */
    public List<String> pageErrors() {
        synchronized (pageErrors) {
            return List.copyOf(pageErrors);
        }
    }

    private JsonNode send(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", params);
        synchronized (this) {
            socket.sendText(JSON.writeValueAsString(message), true).get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        return answer.get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private void received(JsonNode message) {
        if (message.has("id")) {
            CompletableFuture<JsonNode> answer = pending.remove(message.get("id").asInt());
            if (answer != null) {
                if (message.has("error")) {
                    answer.completeExceptionally(new AssertionError("DevTools: " + message.get("error")));
                } else {
                    answer.complete(message.path("result"));
                }
            }
            return;
        }
        String method = message.path("method").asText();
        JsonNode params = message.path("params");
        if (method.equals("Runtime.exceptionThrown")) {
            JsonNode d = params.path("exceptionDetails");
            pageErrors.add(d.path("exception").path("description").asText(d.path("text").asText()));
        } else if (method.equals("Runtime.consoleAPICalled") && params.path("type").asText().equals("error")) {
            pageErrors.add("console.error: " + params.path("args"));
        }
        CompletableFuture<JsonNode> awaited = awaitedEvents.remove(method);
        if (awaited != null) {
            awaited.complete(params);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            socket.abort();
        }
    }

    /** Reassembles text frames into messages. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    received(JSON.readTree(text));
                } catch (Exception e) {
                    pageErrors.add("unreadable DevTools message: " + e);
                }
            }
            webSocket.request(1);
            return null;
        }
    }
}

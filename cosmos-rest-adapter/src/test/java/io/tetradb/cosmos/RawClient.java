package io.tetradb.cosmos;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Hand-made REST requests, signed as the SDKs sign them (or deliberately not), for the cases no SDK sends. */
final class RawClient {
    final HttpClient http = HttpClient.newHttpClient();
    final String base;
    final String key;

    RawClient(String base, String key) {
        this.base = base;
        this.key = key;
    }

    record Answer(int status, JsonNode json, String text, java.net.http.HttpHeaders headers) {
        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    static String now() {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.now().atZone(ZoneOffset.UTC));
    }

    /** The authorization header for a name-based path, as the SDKs compute it. */
    static String authorization(String key, String method, String path, String date) {
        List<String> s = new ArrayList<>(Arrays.stream(path.split("/")).filter(x -> !x.isEmpty()).toList());
        String type;
        String link;
        int n = s.size();
        if (n == 0) {
            type = "";
            link = "";
        } else if (n % 2 == 1) {
            type = s.get(n - 1);
            link = String.join("/", s.subList(0, n - 1));
        } else {
            type = s.get(n - 2);
            link = String.join("/", s);
        }
        String sig = MasterKeyAuth.sign(key, method, type, link, date);
        return URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8);
    }

    Answer send(String method, String path, String body, Map<String, String> headers) throws Exception {
        String date = now();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("x-ms-date", date)
                .header("x-ms-version", "2020-07-15");
        if (key != null) {
            b.header("authorization", authorization(key, method, decode(path), date));
        }
        headers.forEach(b::setHeader);
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = null;
        if (!r.body().isEmpty()) {
            try {
                json = Json.MAPPER.readTree(r.body());
            } catch (Exception notJson) {
                json = null;
            }
        }
        return new Answer(r.statusCode(), json, r.body(), r.headers());
    }

    Answer send(String method, String path, String body) throws Exception {
        return send(method, path, body, Map.of());
    }

    private static String decode(String path) {
        int q = path.indexOf('?');
        String p = q < 0 ? path : path.substring(0, q);
        return String.join("/", HttpHandler.segments(p));
    }
}

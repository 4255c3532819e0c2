package io.tetradb.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.tetradb.testing.TestTime;

/**
 * Small java.net.http helpers for the server tests; every call is bounded by a timeout that only a hung server reaches
 * ({@link TestTime#patience}): a loaded machine may take many seconds to answer, and no test here times an answer.
 */
public final class TestHttp {
    public static final Duration TIMEOUT = TestTime.patience(Duration.ofSeconds(20));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    private TestHttp() {
    }

    public static HttpResponse<String> get(String baseUrl, String path) {
        return send(baseUrl, path, "GET");
    }

    public static HttpResponse<String> send(String baseUrl, String path, String method) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT)
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String contentType(HttpResponse<String> response) {
        return response.headers().firstValue("content-type").orElse("");
    }
}

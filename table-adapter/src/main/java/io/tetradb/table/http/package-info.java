/**
 * The Azure-Tables-compatible REST endpoint on Netty: {@link io.tetradb.table.http.TableHttpServer} is the entry
 * point; requests become {@code ApiRequest}s that {@code TableApi} routes, authenticates (Shared Key, Shared Key
 * Lite, service SAS) and answers in the Tables JSON formats; {@code $batch} bodies are taken apart by
 * {@code Multipart} and Netty's HTTP decoder.
 */
package io.tetradb.table.http;

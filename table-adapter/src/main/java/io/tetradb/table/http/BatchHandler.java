package io.tetradb.table.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.tetradb.table.model.Entity;
import io.tetradb.table.model.TableException;
import io.tetradb.table.store.Table;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Entity group transactions ({@code POST /account/$batch}): one changeset of at most 100 insert, update, merge,
 * upsert and delete operations on one PartitionKey of one table, applied atomically by {@link Table#batch}. Each
 * operation is an HTTP request inside the multipart body: its request line and headers parsed by Netty's own HTTP
 * decoder, its body everything after the header block up to the next boundary (the JavaScript SDK sends no
 * Content-Length and an extra blank line before the JSON). The answer is 202 with a multipart body: one response per
 * operation as Azure writes them (Content-ID echoed; an insert's Location and DataServiceId; ETags), or — when one
 * fails — a single response with that operation's status and an error message {@code "<index>:<message>"}, nothing
 * applied. Under a SAS each operation needs the permissions it would need alone.
 */
final class BatchHandler {
    private static final int MAX_BATCH_BYTES = 4 * 1024 * 1024;
    private final TableApi api;

    BatchHandler(TableApi api) {
        this.api = api;
    }

    /** {@code sas}: the checker of the request's (verified) shared access signature; null when Shared Key signed it. */
    ApiResponse handle(ApiRequest r, ResourcePath p, SasAuth sas) {
        if (r.body().length > MAX_BATCH_BYTES) {
            throw new TableException(413, "RequestBodyTooLarge", "a batch is at most 4 MiB");
        }
        List<Multipart.Part> batchParts = Multipart.parts(r.body(), Multipart.boundary(r.header("Content-Type")));
        if (batchParts.size() != 1) {
            throw TableException.invalidInput("a batch holds exactly one changeset, this one " + batchParts.size()
                    + " parts");
        }
        Multipart.Part changeset = batchParts.get(0);
        String partType = changeset.header("Content-Type");
        if (partType != null && partType.toLowerCase(java.util.Locale.ROOT).startsWith("application/http")) {
            return retrieve(changeset, r, p, sas);
        }
        List<Multipart.Part> ops = Multipart.parts(changeset.content(),
                Multipart.boundary(changeset.header("Content-Type")));
        MetadataLevel level = MetadataLevel.of(r);
        List<ApiRequest> requests = new ArrayList<>();
        List<Table.BatchOperation> operations = new ArrayList<>();
        Table table = null;
        try {
            if (ops.isEmpty() || ops.size() > 100) {
                throw new Table.BatchFailure(0, TableException.invalidInput(
                        "a changeset holds 1 to 100 operations, this one " + ops.size()));
            }
            for (int i = 0; i < ops.size(); i++) {
                try {
                    ApiRequest sub = request(ops.get(i), r);
                    requests.add(sub);
                    ResourcePath sp = api.path(sub.rawPath(), sub.header("Host"));
                    if (!sp.account().equals(p.account())) {
                        throw TableException.invalidInput("every operation of a batch addresses the account "
                                + p.account());
                    }
                    Table.BatchOperation op = operation(sub, sp);
                    if (sas != null) {
                        sas.checkBatchOperation(r, sub, sp, op.entity().partitionKey(), op.entity().rowKey());
                    }
                    Table t = api.service(p.account()).table(sp.table() == null ? "" : sp.table());
                    if (table != null && !table.name().equals(t.name())) {
                        throw TableException.invalidInput("every operation of a batch addresses the same table");
                    }
                    table = t;
                    operations.add(op);
                } catch (Table.BatchFailure e) {
                    throw e;
                } catch (TableException e) {
                    throw new Table.BatchFailure(i, e);
                }
            }
            Table.BatchResult result = table.batch(operations);
            return success(requests, operations, result, level, r, p, table.name());
        } catch (Table.BatchFailure f) {
            return failure(f, f.index() < requests.size() ? requests.get(f.index()) : null, level);
        }
    }

    private static Table.BatchOperation operation(ApiRequest sub, ResourcePath sp) {
        String ifMatch = sub.header("If-Match");
        switch (sp.kind()) {
            case ENTITIES:
                if (sub.method().equals("POST")) {
                    return new Table.BatchOperation(Table.BatchOperation.Kind.INSERT,
                            EntityJson.parse(sub.body(), null, null), null);
                }
                break;
            case ENTITY: {
                switch (sub.method()) {
                    case "PUT":
                        return new Table.BatchOperation(ifMatch == null ? Table.BatchOperation.Kind.UPSERT_REPLACE
                                : Table.BatchOperation.Kind.UPDATE,
                                EntityJson.parse(sub.body(), sp.partitionKey(), sp.rowKey()), ifMatch);
                    case "MERGE":
                    case "PATCH":
                        return new Table.BatchOperation(ifMatch == null ? Table.BatchOperation.Kind.UPSERT_MERGE
                                : Table.BatchOperation.Kind.MERGE,
                                EntityJson.parse(sub.body(), sp.partitionKey(), sp.rowKey()), ifMatch);
                    case "DELETE":
                        if (ifMatch == null) {
                            throw new TableException(400, "MissingRequiredHeader", "a delete needs If-Match");
                        }
                        return new Table.BatchOperation(Table.BatchOperation.Kind.DELETE,
                                new Entity(sp.partitionKey(), sp.rowKey(), java.util.Map.of()), ifMatch);
                    default:
                        break;
                }
                break;
            }
            default:
                break;
        }
        throw TableException.invalidInput("a changeset cannot hold " + sub.method() + " " + sub.rawPath());
    }

    /**
     * The HTTP request inside one part ({@code Content-Type: application/http}): the request line and headers up to
     * the first empty line, then the body — the rest of the part (a Content-Length, when given, is not needed:
     * the boundary ends the body).
     */
    private static ApiRequest request(Multipart.Part part, ApiRequest outer) {
        byte[] content = part.content();
        int[] head = headEnd(content);
        if (head == null) {
            throw TableException.invalidInput("a batch part holds no complete HTTP request head");
        }
        byte[] headBytes = new byte[head[0] + 4];
        System.arraycopy(content, 0, headBytes, 0, head[0]);
        System.arraycopy(new byte[]{'\r', '\n', '\r', '\n'}, 0, headBytes, head[0], 4);
        byte[] body = java.util.Arrays.copyOfRange(content, head[1], content.length);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder());
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(headBytes));
            Object msg = ch.readInbound();
            if (!(msg instanceof HttpRequest req) || req.decoderResult().isFailure()) {
                throw TableException.invalidInput("a batch part is not an HTTP request");
            }
            {
                String uri = req.uri();
                String pathAndQuery = uri;
                if (uri.startsWith("http://") || uri.startsWith("https://")) {
                    URI u = URI.create(uri);
                    pathAndQuery = u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
                    if (u.getRawAuthority() != null) {
                        req.headers().set("Host", u.getRawAuthority()); // the operation's own URL names the host
                    }
                } else if (req.headers().get("Host") == null && outer.header("Host") != null) {
                    req.headers().set("Host", outer.header("Host"));
                }
                QueryStringDecoder q = new QueryStringDecoder(pathAndQuery, StandardCharsets.UTF_8, true, 1024, true);
                String method = req.method().name();
                String tunnelled = req.headers().get("X-HTTP-Method");
                if (method.equals("POST") && tunnelled != null) {
                    method = tunnelled.trim();
                }
                if (req.headers().get("Content-Type") == null && outer.header("Content-Type") != null) {
                    req.headers().set("Content-Type", "application/json");
                }
                return new ApiRequest(method, req.method().name(), q.rawPath(), q.parameters(), req.headers(), body);
            }
        } catch (IllegalArgumentException e) {
            throw TableException.invalidInput("a batch part has a malformed request line: " + e.getMessage());
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    /**
     * A batch whose one part is a request outside a changeset: Azure allows a single retrieve of one entity
     * ({@code GET .../t(PartitionKey='p',RowKey='r')}). Its answer is that part's HTTP response — 200 with the
     * entity, or the error — in a batch response without a changeset.
     */
    private ApiResponse retrieve(Multipart.Part part, ApiRequest r, ResourcePath p, SasAuth sas) {
        ApiRequest sub = request(part, r);
        MetadataLevel level = MetadataLevel.of(sub.header("Accept") != null ? sub : r);
        ApiResponse answer;
        try {
            ResourcePath sp = api.path(sub.rawPath(), sub.header("Host"));
            if (!sub.method().equals("GET") || sp.kind() != ResourcePath.Kind.ENTITY
                    || !sp.account().equals(p.account())) {
                throw TableException.invalidInput("outside a changeset a batch holds only one retrieve: GET of one "
                        + "entity by its PartitionKey and RowKey");
            }
            if (sas != null) {
                sas.checkBatchOperation(r, sub, sp, sp.partitionKey(), sp.rowKey());
            }
            answer = api.readEntity(sub, sp);
        } catch (TableException e) {
            answer = Errors.of(e, level);
        }
        HttpResponseStatus status = HttpResponseStatus.valueOf(answer.status);
        StringBuilder b = new StringBuilder();
        String batch = "batchresponse_" + UUID.randomUUID();
        b.append("--").append(batch).append("\r\n")
                .append("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
                .append("HTTP/1.1 ").append(status.code()).append(" ").append(status.reasonPhrase()).append("\r\n");
        contentId(b, sub);
        b.append("X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nDataServiceVersion: 3.0;\r\n");
        answer.headers.forEach((k, v) -> b.append(k).append(": ").append(v).append("\r\n"));
        b.append("\r\n").append(answer.bodyText()).append("\r\n")
                .append("--").append(batch).append("--\r\n");
        ApiResponse a = new ApiResponse(202);
        a.body = b.toString().getBytes(StandardCharsets.UTF_8);
        a.header("Content-Type", "multipart/mixed; boundary=" + batch);
        return a.charge(answer.requestCharge);
    }

    /**
     * Where the head of a part ends: {end of the last header line, start of the body} — the first empty line
     * (CRLF CRLF or LF LF; leading empty lines before the request line are skipped); null if there is none.
     */
    private static int[] headEnd(byte[] c) {
        int start = 0;
        while (start < c.length && (c[start] == '\r' || c[start] == '\n')) {
            start++;
        }
        for (int i = start; i < c.length; i++) {
            if (c[i] != '\n') {
                continue;
            }
            int next = i + 1;
            if (next < c.length && c[next] == '\r') {
                next++;
            }
            if (next < c.length && c[next] == '\n') {
                int end = i > 0 && c[i - 1] == '\r' ? i - 1 : i;
                return new int[]{end, next + 1};
            }
            if (next >= c.length) {
                return new int[]{i > 0 && c[i - 1] == '\r' ? i - 1 : i, c.length};
            }
        }
        return null;
    }

    private static ApiResponse success(List<ApiRequest> requests, List<Table.BatchOperation> ops,
                                       Table.BatchResult result, MetadataLevel level, ApiRequest r, ResourcePath p,
                                       String table) {
        String changeset = "changesetresponse_" + UUID.randomUUID();
        String baseUrl = TableApi.baseUrl(r, p);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ops.size(); i++) {
            Table.Outcome o = result.outcomes().get(i);
            Table.BatchOperation op = ops.get(i);
            ApiRequest sub = requests.get(i);
            b.append("--").append(changeset).append("\r\n");
            b.append("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n");
            boolean insert = op.kind() == Table.BatchOperation.Kind.INSERT;
            boolean content = insert && !TableApi.noContent(sub);
            b.append(content ? "HTTP/1.1 201 Created\r\n" : "HTTP/1.1 204 No Content\r\n");
            contentId(b, sub);
            b.append("X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n");
            if (insert) {
                String location = TableApi.entityUrl(baseUrl, table, op.entity().partitionKey(), op.entity().rowKey());
                b.append("Preference-Applied: ").append(content ? "return-content" : "return-no-content")
                        .append("\r\n");
                b.append("DataServiceVersion: 3.0;\r\n");
                b.append("Location: ").append(location).append("\r\n");
                b.append("DataServiceId: ").append(location).append("\r\n");
            } else {
                b.append("DataServiceVersion: 1.0;\r\n");
            }
            if (content) {
                b.append("Content-Type: ").append(level.contentType).append("\r\n");
            }
            if (o.etag() != null) {
                b.append("ETag: ").append(o.etag()).append("\r\n");
            }
            b.append("\r\n");
            if (content) {
                byte[] json = TableApi.bytes(EntityJson.write(o.entity(), level, null, baseUrl, table, true));
                b.append(new String(json, StandardCharsets.UTF_8));
            }
            b.append("\r\n");
        }
        b.append("--").append(changeset).append("--\r\n");
        return envelope(changeset, b.toString()).charge(result.requestCharge());
    }

    /** Azure echoes an operation's {@code Content-ID} in its response. */
    private static void contentId(StringBuilder b, ApiRequest sub) {
        String id = sub == null ? null : sub.header("Content-ID");
        if (id != null && !id.isBlank() && id.chars().noneMatch(c -> c == '\r' || c == '\n')) {
            b.append("Content-ID: ").append(id.trim()).append("\r\n");
        }
    }

    private static ApiResponse failure(Table.BatchFailure f, ApiRequest failed, MetadataLevel level) {
        String changeset = "changesetresponse_" + UUID.randomUUID();
        HttpResponseStatus status = HttpResponseStatus.valueOf(f.status());
        String json = new String(TableApi.bytes(Errors.body(f.errorCode(), f.index() + ":" + f.getMessage())),
                StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder();
        b.append("--").append(changeset).append("\r\n")
                .append("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
                .append("HTTP/1.1 ").append(status.code()).append(" ").append(status.reasonPhrase()).append("\r\n");
        contentId(b, failed);
        b.append("X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nDataServiceVersion: 3.0;\r\n")
                .append("x-ms-error-code: ").append(f.errorCode()).append("\r\n")
                .append("Content-Type: ").append(level.contentType).append("\r\n\r\n")
                .append(json).append("\r\n")
                .append("--").append(changeset).append("--\r\n");
        return envelope(changeset, b.toString()).charge(0);
    }

    private static ApiResponse envelope(String changeset, String changesetBody) {
        String batch = "batchresponse_" + UUID.randomUUID();
        String body = "--" + batch + "\r\n"
                + "Content-Type: multipart/mixed; boundary=" + changeset + "\r\n\r\n"
                + changesetBody
                + "--" + batch + "--\r\n";
        ApiResponse a = new ApiResponse(202);
        a.body = body.getBytes(StandardCharsets.UTF_8);
        a.header("Content-Type", "multipart/mixed; boundary=" + batch);
        return a;
    }
}

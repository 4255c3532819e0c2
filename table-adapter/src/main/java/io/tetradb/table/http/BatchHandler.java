package io.tetradb.table.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
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
 * operation is an HTTP request inside the multipart body, parsed by Netty's own HTTP decoder. The answer is 202 with
 * a multipart body: one response per operation, or — when one fails — a single response with that operation's
 * status and an error message {@code "<index>:<message>"}, nothing applied.
 */
final class BatchHandler {
    private static final int MAX_BATCH_BYTES = 4 * 1024 * 1024;
    private final TableApi api;

    BatchHandler(TableApi api) {
        this.api = api;
    }

    /** {@code onlyTable}: the one table the request's service SAS grants (null: any). */
    ApiResponse handle(ApiRequest r, ResourcePath p, String onlyTable) {
        if (r.body().length > MAX_BATCH_BYTES) {
            throw new TableException(413, "RequestBodyTooLarge", "a batch is at most 4 MiB");
        }
        List<Multipart.Part> batchParts = Multipart.parts(r.body(), Multipart.boundary(r.header("Content-Type")));
        if (batchParts.size() != 1) {
            throw TableException.invalidInput("a batch holds exactly one changeset, this one " + batchParts.size()
                    + " parts");
        }
        Multipart.Part changeset = batchParts.get(0);
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
                    ResourcePath sp = ResourcePath.parse(sub.rawPath());
                    if (!sp.account().equals(p.account())) {
                        throw TableException.invalidInput("every operation of a batch addresses the account "
                                + p.account());
                    }
                    if (onlyTable != null && (sp.table() == null || !sp.table().equalsIgnoreCase(onlyTable))) {
                        throw new TableException(403, "AuthorizationResourceTypeMismatch",
                                "the shared access signature does not grant the table " + sp.table());
                    }
                    Table t = api.service(p.account()).table(sp.table() == null ? "" : sp.table());
                    if (table != null && !table.name().equals(t.name())) {
                        throw TableException.invalidInput("every operation of a batch addresses the same table");
                    }
                    table = t;
                    requests.add(sub);
                    operations.add(operation(sub, sp));
                } catch (Table.BatchFailure e) {
                    throw e;
                } catch (TableException e) {
                    throw new Table.BatchFailure(i, e);
                }
            }
            Table.BatchResult result = table.batch(operations);
            return success(requests, operations, result, level, r, p, table.name());
        } catch (Table.BatchFailure f) {
            return failure(f, level);
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

    /** The HTTP request inside one part ({@code Content-Type: application/http}). */
    private static ApiRequest request(Multipart.Part part, ApiRequest outer) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder(), new HttpObjectAggregator(MAX_BATCH_BYTES));
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(part.content()));
            ch.finish();
            Object msg = ch.readInbound();
            if (!(msg instanceof FullHttpRequest req) || req.decoderResult().isFailure()) {
                throw TableException.invalidInput("a batch part is not an HTTP request");
            }
            try {
                String uri = req.uri();
                String pathAndQuery = uri;
                if (uri.startsWith("http://") || uri.startsWith("https://")) {
                    URI u = URI.create(uri);
                    pathAndQuery = u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
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
                return new ApiRequest(method, req.method().name(), q.rawPath(), q.parameters(), req.headers(),
                        ByteBufUtil.getBytes(req.content()));
            } finally {
                req.release();
            }
        } catch (IllegalArgumentException e) {
            throw TableException.invalidInput("a batch part has a malformed request line: " + e.getMessage());
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    private static ApiResponse success(List<ApiRequest> requests, List<Table.BatchOperation> ops,
                                       Table.BatchResult result, MetadataLevel level, ApiRequest r, ResourcePath p,
                                       String table) {
        String changeset = "changesetresponse_" + UUID.randomUUID();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ops.size(); i++) {
            Table.Outcome o = result.outcomes().get(i);
            Table.BatchOperation op = ops.get(i);
            b.append("--").append(changeset).append("\r\n");
            b.append("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n");
            boolean insert = op.kind() == Table.BatchOperation.Kind.INSERT;
            if (insert && !TableApi.noContent(requests.get(i))) {
                byte[] json = TableApi.bytes(EntityJson.write(o.entity(), level, null, TableApi.baseUrl(r, p), table,
                        true));
                b.append("HTTP/1.1 201 Created\r\n");
                b.append("Content-Type: ").append(level.contentType).append("\r\n");
                b.append("Preference-Applied: return-content\r\n");
                b.append("ETag: ").append(o.entity().etag()).append("\r\n\r\n");
                b.append(new String(json, StandardCharsets.UTF_8)).append("\r\n");
            } else {
                b.append("HTTP/1.1 204 No Content\r\n");
                b.append("X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nDataServiceVersion: 1.0;\r\n");
                if (insert) {
                    b.append("Preference-Applied: return-no-content\r\n");
                }
                if (o.etag() != null) {
                    b.append("ETag: ").append(o.etag()).append("\r\n");
                }
                b.append("\r\n");
            }
        }
        b.append("--").append(changeset).append("--\r\n");
        return envelope(changeset, b.toString()).charge(result.requestCharge());
    }

    private static ApiResponse failure(Table.BatchFailure f, MetadataLevel level) {
        String changeset = "changesetresponse_" + UUID.randomUUID();
        HttpResponseStatus status = HttpResponseStatus.valueOf(f.status());
        String json = new String(TableApi.bytes(Errors.body(f.errorCode(), f.index() + ":" + f.getMessage())),
                StandardCharsets.UTF_8);
        String b = "--" + changeset + "\r\n"
                + "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "HTTP/1.1 " + status.code() + " " + status.reasonPhrase() + "\r\n"
                + "X-Content-Type-Options: nosniff\r\nDataServiceVersion: 3.0;\r\n"
                + "x-ms-error-code: " + f.errorCode() + "\r\n"
                + "Content-Type: " + level.contentType + "\r\n\r\n"
                + json + "\r\n"
                + "--" + changeset + "--\r\n";
        return envelope(changeset, b).charge(0);
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

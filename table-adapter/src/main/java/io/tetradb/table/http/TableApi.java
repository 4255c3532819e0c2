package io.tetradb.table.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.table.filter.Filter;
import io.tetradb.table.filter.FilterParser;
import io.tetradb.table.model.Entity;
import io.tetradb.table.model.TableException;
import io.tetradb.table.store.Table;
import io.tetradb.table.store.TableService;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Azure Tables REST operations (API version 2019-02-02 and later, JSON only) over {@link TableService}: routes a
 * request by method and {@link ResourcePath}, checks its signature, and answers as the service does. Independent of
 * Netty; {@link TableHttpServer} feeds it.
 */
final class TableApi {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TableApi.class);
    private final CosmosClient client;
    private final SharedKeyAuth auth;
    private final SasAuth sas;
    private final Map<String, TableService> accounts = new ConcurrentHashMap<>();
    private final BatchHandler batches = new BatchHandler(this);

    TableApi(CosmosClient client, AccountKeys accountKeys) {
        this.client = client;
        this.auth = new SharedKeyAuth(accountKeys);
        this.sas = new SasAuth(auth, this::storedPolicies);
    }

    TableService service(String account) {
        return accounts.computeIfAbsent(account, a -> new TableService(client, a));
    }

    /** Answers one request; every failure becomes the Tables error answer. */
    ApiResponse handle(ApiRequest r) {
        String version = null;
        ApiResponse answer;
        try {
            version = ApiVersions.check(r.header("x-ms-version"));
            refuseAtom(r);
            ResourcePath path = path(r.rawPath(), r.header("Host"));
            if (!auth.knows(path.account())) {
                throw new TableException(403, "AuthenticationFailed", "the account " + path.account()
                        + " does not exist here");
            }
            if (r.query().containsKey("sig")) {
                SasAuth.refuseRepeatedParameters(r);
                sas.check(r, path);
            } else {
                auth.check(r, path.account());
            }
            answer = route(r, path);
        } catch (TableException e) {
            answer = "acl".equals(r.param("comp")) ? Errors.ofXml(e) : Errors.of(e, MetadataLevel.of(r));
            if (e instanceof io.tetradb.table.model.TableThrottledException t) {
                answer.header("x-ms-retry-after-ms", Long.toString(t.retryAfterMillis()));
            }
        } catch (io.tetradb.core.throughput.RequestRateTooLargeException e) { // a path without its own translation
            answer = Errors.of(new io.tetradb.table.model.TableThrottledException(e.retryAfterMillis(), e.getMessage()),
                    MetadataLevel.of(r)).header("x-ms-retry-after-ms", Long.toString(e.retryAfterMillis()));
        } catch (io.tetradb.core.storage.StorageUnavailableException e) { // a path without its own translation
            answer = Errors.of(io.tetradb.table.store.Table.serverBusy(e), MetadataLevel.of(r));
        } catch (RuntimeException e) {
            LOG.error("{} {} failed", r.method(), r.rawPath(), e); // a pattern: the server limits its repeats
            answer = Errors.of(new TableException(500, "InternalError", String.valueOf(e)), MetadataLevel.of(r));
        }
        // Azure answers in the version asked for, and echoes the client's request id
        return answer.header("x-ms-version", version)
                .header("x-ms-client-request-id", r.header("x-ms-client-request-id"));
    }

    /**
     * Azure dropped the Atom format (version 2015-12-11); this endpoint never spoke it: a request that sends Atom, or
     * accepts only Atom, is 415 {@code AtomFormatNotSupported}, as Azure answers.
     */
    private static void refuseAtom(ApiRequest r) {
        String type = r.header("Content-Type");
        String accept = r.param("$format") != null ? r.param("$format") : r.header("Accept");
        boolean sendsAtom = type != null && type.toLowerCase(Locale.ROOT).contains("atom+xml");
        boolean wantsAtom = accept != null && accept.toLowerCase(Locale.ROOT).contains("atom+xml")
                && !accept.toLowerCase(Locale.ROOT).contains("json");
        if (sendsAtom || wantsAtom) {
            throw new TableException(415, "AtomFormatNotSupported", "Atom format is not supported.");
        }
    }

    /** A request path, host-style when the Host names an account served here (else path-style). */
    ResourcePath path(String rawPath, String host) {
        return ResourcePath.parse(rawPath, ResourcePath.hostAccount(host, auth::knows));
    }

    private ApiResponse route(ApiRequest r, ResourcePath p) {
        String method = r.method();
        if ("acl".equals(r.param("comp")) && p.kind() == ResourcePath.Kind.ENTITIES && r.param("restype") == null) {
            return tableAcl(r, p);
        }
        if (p.kind() == ResourcePath.Kind.SERVICE || r.param("comp") != null || r.param("restype") != null) {
            // service properties and statistics: not served by this endpoint
            throw new TableException(501, "NotImplemented", "service properties and statistics are not implemented "
                    + "by this endpoint");
        }
        switch (p.kind()) {
            case TABLES:
                if (method.equals("GET")) {
                    return listTables(r, p);
                } else if (method.equals("POST")) {
                    return createTable(r, p);
                }
                break;
            case TABLE:
                if (method.equals("DELETE")) {
                    service(p.account()).deleteTable(p.table());
                    return new ApiResponse(204).charge(1);
                } else if (method.equals("GET")) {
                    Table t = service(p.account()).table(p.table());
                    return tableAnswer(r, p, t.name(), 200);
                }
                break;
            case ENTITIES:
                if (method.equals("GET")) {
                    return queryEntities(r, p);
                } else if (method.equals("POST")) {
                    return insertEntity(r, p);
                }
                break;
            case ENTITY:
                return entityOperation(r, p);
            case BATCH:
                if (method.equals("POST")) {
                    // under a SAS each operation is checked as it would be alone
                    return batches.handle(r, p, r.param("sig") != null ? sas : null);
                }
                break;
            default:
                break;
        }
        throw new TableException(405, "MethodNotAllowed", "The requested method " + method
                + " is not allowed on the specified resource.");
    }

    // ---- tables --------------------------------------------------------------------------------------------------

    private ApiResponse createTable(ApiRequest r, ResourcePath p) {
        ObjectNode body = EntityJson.parseObject(r.body());
        JsonNode name = body.get("TableName");
        if (name == null || !name.isTextual()) {
            throw new TableException(400, "PropertiesNeedValue", "TableName is required");
        }
        Table t = service(p.account()).createTable(name.textValue());
        if (noContent(r)) {
            return new ApiResponse(204).header("Preference-Applied", "return-no-content").charge(1);
        }
        return tableAnswer(r, p, t.name(), 201).header("Preference-Applied", "return-content");
    }

    private ApiResponse tableAnswer(ApiRequest r, ResourcePath p, String name, int status) {
        MetadataLevel level = MetadataLevel.of(r);
        ObjectNode o = EntityJson.M.createObjectNode();
        if (level != MetadataLevel.NONE) {
            o.put("odata.metadata", baseUrl(r, p) + "/$metadata#Tables/@Element");
        }
        tableFields(o, r, p, name, level);
        return new ApiResponse(status).json(bytes(o), level.contentType).charge(1);
    }

    private void tableFields(ObjectNode o, ApiRequest r, ResourcePath p, String name, MetadataLevel level) {
        if (level == MetadataLevel.FULL) {
            o.put("odata.type", p.account() + ".Tables");
            o.put("odata.id", baseUrl(r, p) + "/Tables('" + name + "')");
            o.put("odata.editLink", "Tables('" + name + "')");
        }
        o.put("TableName", name);
    }

    private ApiResponse listTables(ApiRequest r, ResourcePath p) {
        MetadataLevel level = MetadataLevel.of(r);
        String f = r.param("$filter");
        Filter filter = f == null || f.isBlank() ? null : FilterParser.parse(f); // an empty filter: every table
        TableService.TablePage page = service(p.account()).listTables(filter, top(r), r.param("NextTableName"));
        ObjectNode o = EntityJson.M.createObjectNode();
        if (level != MetadataLevel.NONE) {
            o.put("odata.metadata", baseUrl(r, p) + "/$metadata#Tables");
        }
        ArrayNode values = o.putArray("value");
        for (String name : page.names()) {
            tableFields(values.addObject(), r, p, name, level);
        }
        return new ApiResponse(200).json(bytes(o), level.contentType)
                .header("x-ms-continuation-NextTableName", page.nextTableName()).charge(1);
    }

    // ---- stored access policies (Get/Set Table ACL) ---------------------------------------------------------------

    private ApiResponse tableAcl(ApiRequest r, ResourcePath p) {
        if (r.param("sig") != null) { // Azure: only the account owner may read or set a table's ACL
            throw new TableException(403, "AuthorizationFailure",
                    "This request is not authorized to perform this operation (only the account key may get or "
                            + "set a table's access policies).");
        }
        TableService service = service(p.account());
        Table t = service.table(p.table());
        switch (r.method()) {
            case "GET", "HEAD":
                return new ApiResponse(200).json(AccessPolicyXml.write(service.accessPolicies().get(t)),
                        "application/xml").charge(1);
            case "PUT":
                service.accessPolicies().set(t, AccessPolicyXml.parse(r.body()));
                return new ApiResponse(204).charge(1);
            default:
                throw new TableException(405, "MethodNotAllowed", "The requested method " + r.method()
                        + " is not allowed on a table's access policies.");
        }
    }

    /** The stored access policies of a table, for a SAS that names one ({@code si}); empty when there is no table. */
    private java.util.List<io.tetradb.table.store.AccessPolicies.SignedIdentifier> storedPolicies(String account,
            String table) {
        TableService service = service(account);
        try {
            return service.accessPolicies().get(service.table(table));
        } catch (TableException e) {
            if (e.status() == 404) {
                return java.util.List.of();
            }
            throw e;
        }
    }

    // ---- entities ------------------------------------------------------------------------------------------------

    private ApiResponse insertEntity(ApiRequest r, ResourcePath p) {
        Table t = service(p.account()).table(p.table());
        Entity e = EntityJson.parse(r.body(), null, null);
        Table.Outcome o = t.insert(e);
        String location = entityUrl(baseUrl(r, p), t.name(), e.partitionKey(), e.rowKey());
        if (noContent(r)) {
            return new ApiResponse(204).header("Preference-Applied", "return-no-content")
                    .header("ETag", o.etag()).header("Location", location)
                    .header("DataServiceId", location).charge(o.requestCharge());
        }
        MetadataLevel level = MetadataLevel.of(r);
        ObjectNode json = EntityJson.write(o.entity(), level, null, baseUrl(r, p), t.name(), true);
        return new ApiResponse(201).json(bytes(json), level.contentType).header("ETag", o.entity().etag())
                .header("Location", location).header("Preference-Applied", "return-content")
                .charge(o.requestCharge());
    }

    private ApiResponse entityOperation(ApiRequest r, ResourcePath p) {
        Table t = service(p.account()).table(p.table());
        String ifMatch = r.header("If-Match");
        Table.Outcome o;
        switch (r.method()) {
            case "GET":
                return readEntity(r, p);
            case "PUT": {
                Entity e = EntityJson.parse(r.body(), p.partitionKey(), p.rowKey());
                o = ifMatch == null ? t.upsert(e) : t.update(e, ifMatch);
                break;
            }
            case "MERGE":
            case "PATCH": {
                Entity e = EntityJson.parse(r.body(), p.partitionKey(), p.rowKey());
                o = t.merge(e, ifMatch, ifMatch == null);
                break;
            }
            case "DELETE": {
                if (ifMatch == null) {
                    throw new TableException(400, "MissingRequiredHeader",
                            "An HTTP header that's mandatory for this request is not specified: If-Match");
                }
                o = t.delete(p.partitionKey(), p.rowKey(), ifMatch);
                return new ApiResponse(204).charge(o.requestCharge());
            }
            default:
                throw new TableException(405, "MethodNotAllowed", "The requested method " + r.method()
                        + " is not allowed on an entity.");
        }
        return new ApiResponse(204).header("ETag", o.etag()).charge(o.requestCharge());
    }

    /** One entity by its keys (also the retrieve operation a {@code $batch} may hold alone). */
    ApiResponse readEntity(ApiRequest r, ResourcePath p) {
        Table t = service(p.account()).table(p.table());
        Table.Outcome o = t.get(p.partitionKey(), p.rowKey());
        MetadataLevel level = MetadataLevel.of(r);
        Entity e = o.entity();
        byte[] json = written(g -> EntityJson.write(g, e, level, select(r), baseUrl(r, p), t.name(), true));
        return new ApiResponse(200).json(json, level.contentType).header("ETag", e.etag())
                .charge(o.requestCharge());
    }

    private ApiResponse queryEntities(ApiRequest r, ResourcePath p) {
        Table t = service(p.account()).table(p.table());
        MetadataLevel level = MetadataLevel.of(r);
        String f = r.param("$filter");
        Filter filter = f == null || f.isBlank() ? null : FilterParser.parse(f);
        Table.Page page = t.query(filter, top(r), r.param("NextPartitionKey"));
        Set<String> select = select(r);
        String baseUrl = baseUrl(r, p);
        byte[] json = written(g -> {
            g.writeStartObject();
            if (level != MetadataLevel.NONE) {
                g.writeStringField("odata.metadata", baseUrl + "/$metadata#" + t.name());
            }
            g.writeArrayFieldStart("value");
            for (Entity e : page.entities()) {
                EntityJson.write(g, e, level, select, baseUrl, t.name(), false);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
        ApiResponse answer = new ApiResponse(200).json(json, level.contentType).charge(page.requestCharge());
        if (page.continuation() != null) {
            // the core's continuation token travels in NextPartitionKey; NextRowKey is a placeholder
            answer.header("x-ms-continuation-NextPartitionKey", page.continuation())
                    .header("x-ms-continuation-NextRowKey", "NA");
        }
        return answer;
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    static int top(ApiRequest r) {
        String top = r.param("$top");
        if (top == null) {
            return Table.MAX_PAGE;
        }
        try {
            int n = Integer.parseInt(top.trim());
            if (n < 1 || n > Table.MAX_PAGE) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw TableException.invalidInput("$top must be a whole number from 1 to 1000, got '" + top + "'");
        }
    }

    private static Set<String> select(ApiRequest r) {
        String s = r.param("$select");
        if (s == null || s.isBlank() || s.trim().equals("*")) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).forEach(out::add);
        return out;
    }

    static boolean noContent(ApiRequest r) {
        String prefer = r.header("Prefer");
        return prefer != null && prefer.toLowerCase(Locale.ROOT).contains("return-no-content");
    }

    static String baseUrl(ApiRequest r, ResourcePath p) {
        String host = r.header("Host");
        return "http://" + (host == null ? "localhost" : host) + (p.hostStyle() ? "" : "/" + p.account());
    }

    /** The URL of an entity: {@code <base>/table(PartitionKey='p',RowKey='r')}, keys escaped. */
    static String entityUrl(String baseUrl, String table, String partitionKey, String rowKey) {
        return baseUrl + "/" + table + "(PartitionKey='" + EntityJson.escapeKey(partitionKey) + "',RowKey='"
                + EntityJson.escapeKey(rowKey) + "')";
    }

    /** What a generator writes, as bytes. */
    interface JsonWriting {
        void to(com.fasterxml.jackson.core.JsonGenerator g) throws java.io.IOException;
    }

    static byte[] written(JsonWriting writing) {
        com.fasterxml.jackson.core.util.ByteArrayBuilder out = new com.fasterxml.jackson.core.util.ByteArrayBuilder();
        try (com.fasterxml.jackson.core.JsonGenerator g = EntityJson.M.getFactory().createGenerator(out)) {
            writing.to(g);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    static byte[] bytes(JsonNode n) {
        try {
            return EntityJson.M.writeValueAsBytes(n);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.tetradb.bench.graph;

import org.apache.tinkerpop.gremlin.process.traversal.Order;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The fixed traversals of the {@code graph} benchmark over air-routes. Vertices are named by airport code; the
 * {@code id} function gives that vertex's id in the graph at hand ({@code [pk, id]} in TetraGraph, a number in
 * TinkerGraph), so the same traversal runs on both. {@code ordered}: the traversal defines its result order (else
 * results are compared as multisets: the graphs' adjacency orders differ). {@code gremlin}: the same traversal as
 * gremlin-lang text ({@code %CODE}: that airport's id), for the JanusGraph peer, which runs in its own JVM.
 */
final class AirRoutesTraversals {
    /** The airports whose ids the traversals use. */
    static final List<String> CODES = List.of("SEA", "AUS", "LHR", "JFK", "SAF", "CDG", "SYD", "FAI", "BNA");

    record Case(String name, boolean ordered, String gremlin, BiFunction<GraphTraversalSource, Function<String, Object>,
            Traversal<?, ?>> build) {
    }

    private AirRoutesTraversals() {
    }

    static final List<Case> ALL = List.of(
            // point lookups by id and by indexed property
            new Case("id-lookup", true, "g.V(%SEA).values('city')", (g, id) -> g.V(id.apply("SEA")).values("city")),
            new Case("id-lookup-5", false, "g.V(%SEA,%AUS,%LHR,%JFK,%SYD).values('code')", (g, id) -> g.V(id.apply("SEA"), id.apply("AUS"), id.apply("LHR"),
                    id.apply("JFK"), id.apply("SYD")).values("code")),
            new Case("id-valuemap", true, "g.V(%LHR).valueMap('code','city','runways','elev')", (g, id) -> g.V(id.apply("LHR")).valueMap("code", "city", "runways", "elev")),
            new Case("has-code", true, "g.V().has('airport','code','AUS').values('desc')", (g, id) -> g.V().has("airport", "code", "AUS").values("desc")),
            new Case("has-code-within", false, "g.V().has('code',within('CDG','FRA','AMS','MAD')).values('city')", (g, id) -> g.V().has("code", P.within("CDG", "FRA", "AMS", "MAD"))
                    .values("city")),
            new Case("has-range", false, "g.V().hasLabel('airport').has('runways',gte(6)).values('code')", (g, id) -> g.V().hasLabel("airport").has("runways", P.gte(6)).values("code")),
            new Case("has-country-count", true, "g.V().has('airport','country','IE').count()", (g, id) -> g.V().has("airport", "country", "IE").count()),
            // 1- to 3-hop out / in / both
            new Case("out-1", false, "g.V(%SEA).out('route').values('code')", (g, id) -> g.V(id.apply("SEA")).out("route").values("code")),
            new Case("in-1", false, "g.V(%SEA).in('route').values('code')", (g, id) -> g.V(id.apply("SEA")).in("route").values("code")),
            new Case("both-1-dedup", true, "g.V(%AUS).both('route').dedup().count()", (g, id) -> g.V(id.apply("AUS")).both("route").dedup().count()),
            new Case("outE-filter-inV", false, "g.V(%SEA).outE('route').has('dist',gt(2000)).inV().values('code')", (g, id) -> g.V(id.apply("SEA")).outE("route").has("dist", P.gt(2000))
                    .inV().values("code")),
            new Case("out-2-dedup", true, "g.V(%BNA).out('route').out('route').dedup().count()", (g, id) -> g.V(id.apply("BNA")).out("route").out("route").dedup().count()),
            new Case("in-2-dedup", true, "g.V(%FAI).in('route').in('route').dedup().count()", (g, id) -> g.V(id.apply("FAI")).in("route").in("route").dedup().count()),
            new Case("out-3-count", true, "g.V(%SAF).out('route').out('route').out('route').count()", (g, id) -> g.V(id.apply("SAF")).out("route").out("route").out("route")
                    .count()),
            new Case("out-filter", false, "g.V(%SEA).out('route').has('country','CA').values('code')", (g, id) -> g.V(id.apply("SEA")).out("route").has("country", "CA")
                    .values("code")),
            new Case("out-not-filter", true, "g.V(%LHR).out('route').not(__.has('country',within('US','GB','FR','DE'))).count()", (g, id) -> g.V(id.apply("LHR")).out("route")
                    .not(__.has("country", P.within("US", "GB", "FR", "DE"))).count()),
            new Case("contains", false, "g.V().has('country','code','NZ').out('contains').values('code')", (g, id) -> g.V().has("country", "code", "NZ").out("contains").values("code")),
            // groupCount, path, order().limit(), repeat().times()
            new Case("groupcount-out", true, "g.V(%JFK).out('route').groupCount().by('country')", (g, id) -> g.V(id.apply("JFK")).out("route").groupCount().by("country")),
            new Case("groupcount-label", true, "g.V().groupCount().by(T.label)", (g, id) -> g.V().groupCount().by(org.apache.tinkerpop.gremlin.structure.T.label)),
            new Case("path-2", false, "g.V(%AUS).out('route').out('route').has('code','SYD').path().by('code')", (g, id) -> g.V(id.apply("AUS")).out("route").out("route").has("code", "SYD")
                    .path().by("code")),
            new Case("path-edges", false, "g.V(%SAF).outE('route').inV().path().by('code').by('dist')", (g, id) -> g.V(id.apply("SAF")).outE("route").inV().path().by("code")
                    .by("dist")),
            new Case("order-limit-out", true, "g.V(%SEA).out('route').order().by('longest',desc).by('code').limit(5).values('code')", (g, id) -> g.V(id.apply("SEA")).out("route").order()
                    .by("longest", Order.desc).by("code").limit(5).values("code")),
            new Case("order-limit-all", true, "g.V().hasLabel('airport').order().by('elev',desc).by('code').limit(10).values('code')", (g, id) -> g.V().hasLabel("airport").order().by("elev", Order.desc)
                    .by("code").limit(10).values("code")),
            new Case("outE-order-limit", true, "g.V(%LHR).outE('route').order().by('dist',desc).limit(3).inV().values('code')", (g, id) -> g.V(id.apply("LHR")).outE("route").order()
                    .by("dist", Order.desc).limit(3).inV().values("code")),
            new Case("repeat-times-2", true, "g.V(%SAF).repeat(__.out('route')).times(2).dedup().count()", (g, id) -> g.V(id.apply("SAF")).repeat(__.out("route")).times(2).dedup()
                    .count()),
            new Case("repeat-simplepath", false, "g.V(%FAI).repeat(__.out('route').simplePath()).times(2).has('code','SEA').path().by('code')", (g, id) -> g.V(id.apply("FAI")).repeat(__.out("route").simplePath())
                    .times(2).has("code", "SEA").path().by("code")),
            new Case("project", true, "g.V(%CDG).project('code','out','in').by('code').by(__.out('route').count()).by(__.in('route').count())", (g, id) -> g.V(id.apply("CDG")).project("code", "out", "in")
                    .by("code").by(__.out("route").count()).by(__.in("route").count()))
    );
}

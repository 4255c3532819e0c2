package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.jsr223.AbstractGremlinPlugin;

import java.util.Set;

/** Hands {@link AnnotationRefusal} to the gremlin-groovy engine (Gremlin Server configures plugins by class name). */
public final class SandboxGremlinPlugin extends AbstractGremlinPlugin {
    private static final SandboxGremlinPlugin INSTANCE = new SandboxGremlinPlugin();

    private SandboxGremlinPlugin() {
        super("tetradb.sandbox", Set.of("gremlin-groovy"), new AnnotationRefusal());
    }

    public static SandboxGremlinPlugin instance() {
        return INSTANCE;
    }
}

package io.tetradb.graph.structure;

import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.NoSuchElementException;

/** A key/value property of an edge or a meta-property of a vertex property; removing it writes its owner. */
public final class TetraProperty<V> implements Property<V> {
    private final Element owner;
    private final String key;
    private final V value;
    private final Runnable remover;

    TetraProperty(Element owner, String key, V value, Runnable remover) {
        this.owner = owner;
        this.key = key;
        this.value = value;
        this.remover = remover;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public V value() throws NoSuchElementException {
        return value;
    }

    @Override
    public boolean isPresent() {
        return true;
    }

    @Override
    public Element element() {
        return owner;
    }

    @Override
    public void remove() {
        remover.run();
    }

    @Override
    public boolean equals(Object o) {
        return ElementHelper.areEqual(this, o);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode(this);
    }

    @Override
    public String toString() {
        return StringFactory.propertyString(this);
    }
}

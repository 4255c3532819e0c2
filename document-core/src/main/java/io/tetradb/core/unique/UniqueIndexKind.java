package io.tetradb.core.unique;

/** Makes the key function of a stored unique index definition of one kind (the face that defined it). */
@FunctionalInterface
public interface UniqueIndexKind {
    ItemUniqueIndex open(UniqueIndexDefinition definition);
}

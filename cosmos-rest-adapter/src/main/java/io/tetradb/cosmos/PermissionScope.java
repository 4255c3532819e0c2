package io.tetradb.cosmos;

import java.util.Set;

/**
 * What a permission's {@code resource} link covers, as Cosmos DB defines it: the link and everything under it (the
 * .NET SDK's PermissionProperties: "ResourceUri is prefix of resource's link"). A database link covers its
 * containers and all they hold; a container link its items, scripts and feeds; an item, stored procedure, trigger,
 * UDF or conflict link that one resource. Users, permissions and offers are never reachable with a resource token.
 */
final class PermissionScope {
    /** The kinds of a container's resources a permission may name one of ({@code docs} is kept as an item scope). */
    static final Set<String> CHILD_KINDS = Set.of("docs", "sprocs", "triggers", "udfs", "conflicts");

    private PermissionScope() {
    }

    /**
     * Whether {@code kind}/{@code segment} of a request is the script or conflict {@code child}
     * ({@code <kind>/<id>}) a permission names, by id or by the RID the face gives it.
     */
    static boolean isChild(Target t, String child, String kind, String segment) {
        int slash = child.indexOf('/');
        String childKind = child.substring(0, slash);
        String id = child.substring(slash + 1);
        if (!childKind.equals(kind)) {
            return false;
        }
        if (id.equals(segment)) {
            return true;
        }
        String ridOfId = Scripts.rid(t, kind, id);
        String ridOfSegment = Scripts.rid(t, kind, segment);
        return ridOfId != null && (ridOfId.equals(segment) || ridOfSegment.equals(id));
    }
}

package io.tetradb.mongo.command;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** currentOp never shows a password: a running createUser/updateUser's {@code pwd} is "xxx", as mongod redacts it. */
class CurrentOpRedactionTest {
    @Test
    void aPasswordIsShownAsXxxAndTheCommandItselfIsUntouched() {
        BsonDocument createUser = new BsonDocument("createUser", new BsonString("ann"))
                .append("pwd", new BsonString("s3cret")).append("roles", new BsonArray());
        BsonDocument shown = Operations.shown(createUser);
        assertEquals(new BsonString("xxx"), shown.get("pwd"));
        assertEquals(new BsonString("ann"), shown.get("createUser"));
        assertEquals(new BsonString("s3cret"), createUser.get("pwd"), "the running command keeps its password");
        BsonDocument find = new BsonDocument("find", new BsonString("c"));
        assertEquals(find, Operations.shown(find));
    }
}

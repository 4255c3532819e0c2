package io.tetradb.mongo.command;

/** The MongoDB server error codes this face answers with (numbers and names as in MongoDB's error_codes.yml). */
public enum ErrorCode {
    INTERNAL_ERROR(1, "InternalError"),
    INTERRUPTED(11601, "Interrupted"),
    BAD_VALUE(2, "BadValue"),
    NO_SUCH_KEY(4, "NoSuchKey"),
    FAILED_TO_PARSE(9, "FailedToParse"),
    UNAUTHORIZED(13, "Unauthorized"),
    AUTHENTICATION_FAILED(18, "AuthenticationFailed"),
    TYPE_MISMATCH(14, "TypeMismatch"),
    ILLEGAL_OPERATION(20, "IllegalOperation"),
    NAMESPACE_NOT_FOUND(26, "NamespaceNotFound"),
    INDEX_NOT_FOUND(27, "IndexNotFound"),
    CONFLICTING_UPDATE_OPERATORS(40, "ConflictingUpdateOperators"),
    CURSOR_NOT_FOUND(43, "CursorNotFound"),
    NAMESPACE_EXISTS(48, "NamespaceExists"),
    DOLLAR_PREFIXED_FIELD_NAME(52, "DollarPrefixedFieldName"),
    INVALID_ID_FIELD(53, "InvalidIdField"),
    INVALID_DBREF(55, "InvalidDBRef"),
    USER_NOT_FOUND(11, "UserNotFound"),
    ALREADY_INITIALIZED(23, "AlreadyInitialized"),
    ROLE_NOT_FOUND(31, "RoleNotFound"),
    USER_ALREADY_EXISTS(51003, "Location51003"),
    IDL_MISSING_FIELD(40414, "Location40414"),
    EMPTY_FIELD_NAME(56, "EmptyFieldName"),
    COMMAND_NOT_FOUND(59, "CommandNotFound"),
    SHARD_KEY_NOT_FOUND(61, "ShardKeyNotFound"),
    IMMUTABLE_FIELD(66, "ImmutableField"),
    INVALID_OPTIONS(72, "InvalidOptions"),
    INVALID_NAMESPACE(73, "InvalidNamespace"),
    INDEX_OPTIONS_CONFLICT(85, "IndexOptionsConflict"),
    INDEX_KEY_SPECS_CONFLICT(86, "IndexKeySpecsConflict"),
    OPERATION_FAILED(96, "OperationFailed"),
    WRITE_CONFLICT(112, "WriteConflict"),
    CONVERSION_FAILURE(241, "ConversionFailure"),
    MERGE_STAGE_NO_MATCHING_DOCUMENT(13113, "MergeStageNoMatchingDocument"),
    BUCKET_NO_DEFAULT(40066, "Location40066"),
    DOCUMENT_VALIDATION_FAILURE(121, "DocumentValidationFailure"),
    NO_SUCH_TRANSACTION(251, "NoSuchTransaction"),
    OPERATION_NOT_SUPPORTED_IN_TRANSACTION(263, "OperationNotSupportedInTransaction"),
    TRANSACTION_TOO_LARGE(334, "TransactionTooLarge"),
    NOT_IMPLEMENTED(238, "NotImplemented"),
    QUERY_EXCEEDED_MEMORY_LIMIT(292, "QueryExceededMemoryLimitNoDiskUseAllowed"),
    UNSUPPORTED_OP_QUERY_COMMAND(352, "UnsupportedOpQueryCommand"),
    REQUEST_RATE_TOO_LARGE(16500, "RequestRateTooLarge"),
    DUPLICATE_KEY(11000, "DuplicateKey"),
    BSON_OBJECT_TOO_LARGE(10334, "BSONObjectTooLarge"),
    LOCATION_UPDATE_PATH_NOT_VIABLE(28, "PathNotViable");

    private final int code;
    private final String codeName;

    ErrorCode(int code, String codeName) {
        this.code = code;
        this.codeName = codeName;
    }

    public int code() {
        return code;
    }

    public String codeName() {
        return codeName;
    }
}

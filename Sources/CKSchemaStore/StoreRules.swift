import CKSchemaModel

/// The store's and the migrations' rule codes (CK5xx) and what `docs/rules.md` says of each.
public enum StoreRules {
    // The store file.
    public static let notAStore = RuleInfo(code: "CK501", name: "not-a-store", summary: "The store file is not an SQLite database, or is another tool's database.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let newerFormat = RuleInfo(code: "CK502", name: "store-newer-format", summary: "The store was written by a newer ckschema (a higher store format version); it is never rewritten by an older one.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let readOnly = RuleInfo(code: "CK503", name: "store-read-only", summary: "The store (or its folder) cannot be written.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let full = RuleInfo(code: "CK504", name: "store-full", summary: "The disk is full; the transaction was rolled back.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let locked = RuleInfo(code: "CK505", name: "store-locked", summary: "Another `migrate apply` holds the store's lock and did not release it within --lock-timeout.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let sqlite = RuleInfo(code: "CK506", name: "store-sqlite-error", summary: "SQLite reported an error (code, message and SQL are shown).", defaultSeverity: .error, source: "ckschema (store and migration format)")

    // Migration files.
    public static let fileName = RuleInfo(code: "CK510", name: "migration-file-name", summary: "A file in Migrations/ is not named NNNN_name.yaml.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let duplicateVersion = RuleInfo(code: "CK511", name: "migration-duplicate-version", summary: "Two migration files share a version number.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let gap = RuleInfo(code: "CK512", name: "migration-gap", summary: "Migration versions skip a number (they must be 1, 2, 3, ...).", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let unknownStep = RuleInfo(code: "CK513", name: "migration-unknown-step", summary: "A step kind the migration format does not have (with a did-you-mean).", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let invalidStep = RuleInfo(code: "CK514", name: "migration-invalid-step", summary: "A step is missing a key, has an unknown key, or a value of the wrong kind.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let badTarget = RuleInfo(code: "CK515", name: "migration-bad-target", summary: "A step names a record type, field, zone or role that does not exist (or adds one that already does).", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let backfillType = RuleInfo(code: "CK516", name: "backfill-type-mismatch", summary: "A backfill's value or expression does not fit the field's type.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let lossyCopy = RuleInfo(code: "CK517", name: "copy-lossy-conversion", summary: "A copy step converts between types where the conversion can lose data.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let notAllowed = RuleInfo(code: "CK518", name: "migration-step-not-allowed", summary: "A step CloudKit does not allow on that field or type (an index on an encrypted field, a searchable index on bytes, ...).", defaultSeverity: .error, source: "CKRecordZone: \"You can create custom zones only in a private database\" (developer.apple.com/documentation/cloudkit/ckrecordzone)")

    // The sum file.
    public static let sumMismatch = RuleInfo(code: "CK520", name: "sum-mismatch", summary: "Migrations/ckschema.sum does not match the migration files (a file was edited, added or removed without `migrate hash`).", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let sumMissing = RuleInfo(code: "CK521", name: "sum-missing", summary: "Migrations/ckschema.sum is missing or malformed.", defaultSeverity: .error, source: "ckschema (store and migration format)")

    // Status.
    public static let changed = RuleInfo(code: "CK530", name: "migration-changed", summary: "An applied migration's file has changed since it was applied (its checksum differs from the store's history).", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let missing = RuleInfo(code: "CK531", name: "migration-missing", summary: "The store's history has a migration that is not in the folder.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let pending = RuleInfo(code: "CK532", name: "migration-pending", summary: "A migration in the folder is not yet applied to the store.", defaultSeverity: .note, source: "ckschema (store and migration format)")
    public static let replayDrift = RuleInfo(code: "CK533", name: "migration-replay-drift", summary: "Replaying every migration from empty does not give the development schema.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let storeDrift = RuleInfo(code: "CK534", name: "store-drift", summary: "The store's schema for an environment is not what its migration history produces.", defaultSeverity: .error, source: "ckschema (store and migration format)")

    public static let productionNotRecorded = RuleInfo(code: "CK535", name: "production-not-recorded", summary: "The store's production environment is empty while ckschema.yaml names a production schema that is not: promote --apply and migrate apply --env production would start from nothing.", defaultSeverity: .warning, source: "ckschema (store and migration format); Flyway's `baseline`, GRDB's migrator that refuses a database it did not create")
    public static let productionDiffers = RuleInfo(code: "CK536", name: "store-production-differs", summary: "The store's production schema differs from ckschema.yaml's production schema (after a Console deploy or a pull); the note names the command that brings one up to the other.", defaultSeverity: .note, source: "ckschema (store and migration format)")
    public static let baselineRefused = RuleInfo(code: "CK537", name: "baseline-refused", summary: "`migrate baseline` refused: the production schema is empty, the folder already has migrations or the store a history (without --force), or the baseline would not build exactly that schema.", defaultSeverity: .error, source: "ckschema (store and migration format); Flyway's `baseline`, Atlas's `migrate apply --baseline`")
    public static let renameRefused = RuleInfo(code: "CK538", name: "rename-refused", summary: "`migrate new --rename Type.old:new` refused: no such type or field in the development schema, the migrations do not have the old field yet (edit the name instead), the new name is taken, or the schema already has the new field with another type.", defaultSeverity: .error, source: "Deploying an iCloud Container's Schema: production never renames or deletes a deployed field, so a rename is a new field, a copy and a deprecation")

    // Production.
    public static let productionForbidden = RuleInfo(
        code: "CK540", name: "production-forbidden-step",
        summary: "A step production would refuse: deleting a record type or field, changing a field's type or encryption.",
        defaultSeverity: .error,
        source: "Apple, Deploying an iCloud Container's Schema (https://developer.apple.com/documentation/cloudkit/deploying-an-icloud-container-s-schema)")
    public static let removeIndexReview = RuleInfo(
        code: "CK541", name: "remove-index-review", summary: "Removing an index is allowed but breaks queries that need it.", defaultSeverity: .warning,
        source: "Apple, Managing Your CloudKit Schema: indexes (https://developer.apple.com/documentation/cloudkit/managing_icloud_containers_with_the_cloudkit_database_app)")

    // Record import.
    public static let recordMalformed = RuleInfo(code: "CK550", name: "record-malformed", summary: "An NDJSON line is not JSON or not a record in the Web Services shape.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let recordUnknownType = RuleInfo(code: "CK551", name: "record-unknown-type", summary: "A record's type is not in the environment's schema.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let recordUnknownField = RuleInfo(
        code: "CK552", name: "record-unknown-field", summary: "Production refuses a record with a field its schema does not have.", defaultSeverity: .error,
        source: "Apple, Deploying an iCloud Container's Schema: production does not create fields just in time")
    public static let recordValueType = RuleInfo(code: "CK553", name: "record-value-type", summary: "A field's value does not have the field's type.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let recordConflict = RuleInfo(
        code: "CK554", name: "record-conflict", summary: "The save policy found a stale change tag (CKError.serverRecordChanged).", defaultSeverity: .error,
        source: "Apple, CKModifyRecordsOperation.RecordSavePolicy")
    public static let recordBatchFailed = RuleInfo(
        code: "CK555", name: "record-batch-failed", summary: "A record was not saved because another record of its batch failed in an atomic zone.", defaultSeverity: .error,
        source: "Apple, CKModifyRecordsOperation.isAtomic; CKRecordZone.Capabilities.atomic")
    public static let recordUnknownZone = RuleInfo(code: "CK556", name: "record-unknown-zone", summary: "A record names a zone the environment's schema does not have.", defaultSeverity: .error, source: "ckschema (store and migration format)")
    public static let recordNewField = RuleInfo(
        code: "CK557", name: "record-new-field", summary: "Development added a field to the schema just in time, as CloudKit does for a record with a new key.", defaultSeverity: .note,
        source: "Apple, Designing and Creating a CloudKit Database: just-in-time schema in development")
    public static let recordReferenceTargetMissing = RuleInfo(
        code: "CK558", name: "record-reference-target-missing",
        summary: "A record's deleteSelf reference names a record that neither exists in its zone nor is saved in the same request (CKError.referenceViolation).", defaultSeverity: .error,
        source: "Apple, CKRecord.Reference (CKReference.h: a reference with an action other than none to a record not on the server and not in the current save operation is an error); CKError.Code.referenceViolation (https://developer.apple.com/documentation/cloudkit/ckerror/code/referenceviolation)")

    /// How to rebuild a damaged store (CK501), the one wording every such diagnostic uses:
    /// what the repository restores (the schemas from Migrations/, the records from an
    /// export or fixtures) and what only the store held (which migrations production has),
    /// with the command that records it again (issue 32 point 8; docs/store.md, "A damaged store").
    public static func rebuildAdvice(_ path: String) -> String {
        "restore '\(path)' from a backup, or rebuild it: move it away, run `ckschema migrate apply` (the development schema, from Migrations/) and `ckschema records import FILE` (records, from an NDJSON export or your fixtures); "
            + "only the store knew which migrations production has: record that again with `ckschema migrate apply --env production --to N`, N being the last migration deployed to production"
    }

    public static let all: [RuleInfo] = [
        notAStore, newerFormat, readOnly, full, locked, sqlite,
        fileName, duplicateVersion, gap, unknownStep, invalidStep, badTarget, backfillType, lossyCopy, notAllowed,
        sumMismatch, sumMissing,
        changed, missing, pending, replayDrift, storeDrift, productionNotRecorded, productionDiffers, baselineRefused, renameRefused,
        productionForbidden, removeIndexReview,
        recordMalformed, recordUnknownType, recordUnknownField, recordValueType, recordConflict, recordBatchFailed, recordUnknownZone, recordNewField, recordReferenceTargetMissing,
    ]
}

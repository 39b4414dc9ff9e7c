import CKSchemaDiagnostics

/// `ckschema reset --env development`: `cktool reset-schema`, which resets the development
/// schema to production's and deletes every record in development (Apple, cktool:
/// "Reset development schema ... revert the development database to the current production
/// definition"). CloudKit has no reset of production; the executable refuses it before this.
public enum SchemaResetter {
    /// What a reset deletes, said before it runs.
    public static func warning(container: String) -> String {
        "resetting the development environment of \(SchemaPuller.escaped(container)): its schema becomes production's, and every record in development is deleted"
    }

    /// Runs `cktool reset-schema`; throws CK802 with cktool's message when it fails.
    public static func reset(_ session: CKToolSession) throws(InputError) {
        let outcome = try session.run("reset-schema", [])
        guard outcome.status == 0 else { throw session.failure("reset-schema", outcome) }
    }
}

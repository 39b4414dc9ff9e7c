import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaRecords

/// `ckschema check`'s validate step: the record files `ckschema.yaml` lists.
extension RecordValidator {
    /// Validates each record file that `configuration.records` lists against the schema
    /// of its environment (`schemas.production` or `schemas.development`), calling
    /// `onDiagnostic` in input order. Throws when a schema cannot be loaded or is not
    /// configured; a record file that cannot be read is a CK001 diagnostic and counts in
    /// the summary's `unreadableFiles`.
    /// - Parameter loaded: the schema at a path, as the caller has already loaded it (`check`
    ///   loads each source once); nil from it means the caller reported it unreadable, and
    ///   that environment's files are skipped. Without it each schema is loaded here.
    public static func validateConfigured(
        _ configuration: Configuration, options: Options = Options(), loaded: ((String) -> Schema?)? = nil, onDiagnostic: (Diagnostic) -> Void
    ) throws(InputError) -> ValidationSummary {
        var total = ValidationSummary()
        for env in Environment.allCases {
            let files = configuration.records.filter { $0.environment == env }.map(\.path)
            if files.isEmpty { continue }
            guard let path = configuration.schema(for: env) else {
                throw InputError(Diagnostic(rule: InputRules.config,
                    "ckschema.yaml lists \(env.rawValue) record files but names no 'schemas.\(env.rawValue)'",
                    at: configuration.path.map { SourceLocation(file: $0, line: 1, column: 1) }))
            }
            let schema: Schema
            if let loaded {
                guard let known = loaded(path) else { continue }
                schema = known
            } else {
                schema = try SchemaSource.load(path: path, model: configuration.model ?? ModelSelection())
            }
            let s = RecordValidator(schema: schema, environment: env, options: options).validate(files: files, onDiagnostic: onDiagnostic)
            total.files += s.files
            total.records += s.records
            total.bytes += s.bytes
            total.errors += s.errors
            total.warnings += s.warnings
            total.notes += s.notes
            total.malformedRecords += s.malformedRecords
            total.unreadableFiles += s.unreadableFiles
            total.stoppedEarly = total.stoppedEarly || s.stoppedEarly
        }
        return total
    }
}

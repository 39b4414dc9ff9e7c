/// `ckschema import`: a `.ckdb` file (what `cktool export-schema` writes) to the canonical
/// YAML form (what `ckschema fmt` writes).
public enum CKDBImporter {
    /// The result of an import: the schema in cktool form, its YAML, and notes for the user.
    public struct Result: Sendable {
        public var schema: Schema
        /// The canonical YAML text (`schema.canonicalYAML`).
        public var yaml: String
        /// Notes on what the import added (cktool's default Users type).
        public var diagnostics: [Diagnostic]
    }

    /// Reads a `.ckdb` file and converts it.
    /// - Throws: `InputError` with every problem in the file.
    public static func importFile(path: String) throws(InputError) -> Result {
        convert(try CKDBParser.read(path: path))
    }

    /// Converts a parsed `.ckdb` schema: fields and grants in cktool's order, and the
    /// default `Users` type when the file has none (every container has one, and
    /// `cktool import-schema` keeps it), so that importing an export gives the same YAML.
    public static func convert(_ parsed: Schema) -> Result {
        var diagnostics: [Diagnostic] = []
        if parsed.recordType(named: "Users") == nil {
            diagnostics.append(Diagnostic(
                code: CKDBRules.usersAdded.code, severity: .note, location: parsed.origin.location,
                message: "the file has no Users record type; the import adds cktool's default one (roles: list<int64>), which every container has",
                fix: "nothing to do; edit Users in the YAML schema to change it"))
        }
        let schema = CKDBExporter.cktoolForm(parsed)
        return Result(schema: schema, yaml: schema.canonicalYAML, diagnostics: diagnostics)
    }
}

import CKSchemaCKDB
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaYAML

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
    public static func convert(_ parsed: consuming Schema) -> Result {
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

    /// Imports into an existing YAML schema file instead of replacing it: record types,
    /// fields, indexes, encryption, grants and roles come from the `.ckdb` (what CloudKit
    /// holds); what the CloudKit Schema Language cannot say is kept from the file: the
    /// container, zones, declared queries, each type's zone, database, `requires`,
    /// description and deprecation, each field's description, deprecation and reference
    /// target and action, and the file's comments. A note says what was kept and what the
    /// `.ckdb` no longer has.
    public static func merge(_ imported: Result, into existing: SchemaFile) -> Result {
        // The untouched example `ckschema init` wrote holds nothing of the user's: replace it.
        if let container = existing.schema.container,
           existing.text == ProjectTemplate.files(container: container).first(where: { $0.path == "Schemas/development.yaml" })?.text {
            var result = imported
            result.diagnostics.append(Diagnostic(rule: CKDBRules.merged, "replaced the example schema 'ckschema init' wrote (it held nothing of yours)", at: SourceLocation(file: existing.path, line: 1, column: 1)))
            return result
        }
        let old = existing.schema
        var merged = imported.schema
        merged.container = old.container
        merged.zones = old.zones
        // A declared query on a record type or field the .ckdb does not have would only be a lint error.
        merged.queries = old.queries.filter { q in
            guard let t = imported.schema.recordType(named: q.recordType) else { return false }
            return (q.filter + q.search + q.sort).allSatisfy { t.field(named: $0) != nil || SystemField(rawValue: $0) != nil }
        }
        let keptQueries = Set(merged.queries.map(\.label))
        merged.origin = old.origin
        var kept: [String] = []
        if old.container != nil { kept.append("the container") }
        if !old.zones.isEmpty { kept.append("\(old.zones.count) zone\(old.zones.count == 1 ? "" : "s")") }
        if !merged.queries.isEmpty { kept.append("\(merged.queries.count) declared quer\(merged.queries.count == 1 ? "y" : "ies")") }
        var typeDetails = 0
        for i in merged.recordTypes.indices {
            guard let before = old.recordType(named: merged.recordTypes[i].name) else { continue }
            var t = merged.recordTypes[i]
            t.zone = before.zone
            t.database = before.database
            t.description = before.description
            t.isDeprecated = before.isDeprecated
            t.requiredCapabilities = before.requiredCapabilities
            if t.zone != nil || t.database != nil || t.description != nil || t.isDeprecated || !t.requiredCapabilities.isEmpty { typeDetails += 1 }
            for j in t.fields.indices {
                guard let f = before.field(named: t.fields[j].name) else { continue }
                t.fields[j].description = f.description
                t.fields[j].isDeprecated = f.isDeprecated
                t.fields[j].referenceTarget = f.referenceTarget
                t.fields[j].referenceAction = f.referenceAction
                // An on-demand field (`onDemand: true`) stays one: a .ckdb cannot say it.
                t.fields[j].mayBeAbsent = f.mayBeAbsent
                if f.description != nil || f.isDeprecated || f.referenceTarget != nil || f.referenceAction != nil { typeDetails += 1 }
            }
            merged.recordTypes[i] = t
        }
        if typeDetails > 0 { kept.append("zones, requires, descriptions, deprecations and reference targets of \(typeDetails) record type\(typeDetails == 1 ? "" : "s") and field\(typeDetails == 1 ? "" : "s")") }
        if !existing.comments.isEmpty { kept.append("comments") }
        var dropped: [String] = []
        for t in old.recordTypes {
            guard let now = merged.recordType(named: t.name) else { dropped.append("record type \(t.name)"); continue }
            for f in t.fields where now.field(named: f.name) == nil { dropped.append("field \(t.name).\(f.name)") }
        }
        for q in old.queries where !keptQueries.contains(q.label) { dropped.append("query \(q.label)") }
        var diagnostics = imported.diagnostics
        let at = SourceLocation(file: existing.path, line: 1, column: 1)
        diagnostics.append(Diagnostic(
            code: CKDBRules.merged.code, severity: .note, location: at,
            message: "merged into the existing YAML schema: record types, fields, indexes, encryption and grants come from the .ckdb; kept from the file: "
                + (kept.isEmpty ? "nothing (it held only what the .ckdb holds)" : kept.joined(separator: ", ")),
            fix: "review the change with 'git diff'; to replace the file instead, use --force"))
        if !dropped.isEmpty {
            diagnostics.append(Diagnostic(
                code: CKDBRules.merged.code, severity: .warning, location: at,
                message: "the .ckdb does not have what the file described: " + dropped.prefix(10).joined(separator: ", ") + (dropped.count > 10 ? ", ..." : "") + "; it is gone from the file",
                fix: "if production has it, export production again; CloudKit never deletes a deployed field or record type"))
        }
        let yaml = SchemaEmitter.emit(merged, comments: existing.comments, keyLines: existing.keyLines)
        return Result(schema: merged, yaml: yaml, diagnostics: diagnostics)
    }
}

import CKSchemaCoreData
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaSwift
import CKSchemaYAML

/// `ckschema import Model.xcdatamodeld`: the mapped schema as canonical YAML.
public enum CoreDataImport {
    /// The YAML of a model's CloudKit schema, headed by a comment naming the model and the
    /// version (and configuration) it came from. The on-demand fields (`_ckAsset`
    /// companions, `CD_moveReceipt`) are left out: the YAML format cannot say "may be
    /// absent", and a YAML schema that listed them would ask production for fields
    /// CloudKit may never create.
    public static func yaml(path: String, selection: ModelSelection = ModelSelection()) throws(InputError) -> String {
        if SchemaSource.isSwiftSource(path: path) { return try swiftDataYAML(path: path, selection: selection).yaml }
        var schema = try CoreDataReader.loadSchema(path: path, selection: selection)
        for i in schema.recordTypes.indices { schema.recordTypes[i].fields.removeAll(where: \.mayBeAbsent) }
        let version = schema.coreDataModel?.versionName ?? ""
        var header = "# Mapped by 'ckschema import' from the Core Data model \(path), version '\(version)'"
        if let c = selection.configuration { header += ", configuration '\(c)'" }
        header += ".\n# The schema NSPersistentCloudKitContainer mirrors (docs/coredata.md); fields CloudKit creates\n"
            + "# only on demand (CD_<attribute>_ckAsset, CD_moveReceipt) are not listed.\n"
        return header + schema.canonicalYAML
    }

    /// What `ckschema import App/Models` gives: the schema SwiftData sources mirror to, its
    /// YAML, and the reader's notes (CK641, CK643, CK644) for the command to show.
    public struct SwiftDataImport: Sendable {
        public var schema: Schema
        public var yaml: String
        public var notes: [Diagnostic]
    }

    /// `ckschema import App/Models`: the schema SwiftData sources mirror to, as YAML, and the
    /// reader's notes (CK641, CK643, CK644) for the command to show.
    public static func swiftDataYAML(path: String, selection: ModelSelection = ModelSelection()) throws(InputError) -> (yaml: String, notes: [Diagnostic]) {
        let result = try swiftData(path: path, selection: selection)
        return (result.yaml, result.notes)
    }

    /// The schema, YAML and notes of SwiftData sources (`swiftDataYAML`), with the schema.
    public static func swiftData(path: String, selection: ModelSelection = ModelSelection()) throws(InputError) -> SwiftDataImport {
        // The on-demand fields are not built at all (rather than built and removed).
        let schema = try SchemaSource.loadSwiftData(path: path, selection: selection, onDemandFields: false)
        let version = schema.coreDataModel?.versionName ?? ""
        let header = "# Mapped by 'ckschema import' from the SwiftData sources \(path)" + (version.isEmpty ? "" : ", VersionedSchema '\(version)'")
            + ".\n# The schema NSPersistentCloudKitContainer mirrors (docs/swiftdata.md); fields CloudKit creates\n"
            + "# only on demand (CD_<attribute>_ckAsset, CD_moveReceipt) are not listed.\n"
        let notes = (schema.coreDataModel?.notes ?? []).compactMap { n in
            SwiftRules.notes.first { $0.code == n.code }.map { Diagnostic(rule: $0, n.message, at: n.origin.location, fix: n.fix) }
        }
        // The header is written into the emitter's text: `header + yaml` copied the whole text.
        return SwiftDataImport(schema: schema, yaml: SchemaEmitter.emit(schema, header: header), notes: notes.sortedByLocation())
    }
}

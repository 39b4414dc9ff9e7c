import CKSchemaCoreData
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaSwift
import CKSchemaYAML

/// `ckschema import Model.xcdatamodeld`: the mapped schema as canonical YAML.
public enum CoreDataImport {
    /// The YAML of a model's CloudKit schema, headed by a comment naming the model and the
    /// version (and configuration) it came from. The on-demand fields (`_ckAsset`
    /// companions, `CD_moveReceipt`) are kept, marked `onDemand: true`: the container
    /// creates them when a record first needs them, so production may have them or not,
    /// and the imported YAML then compares with an export as the model does (issue 31
    /// point 9: leaving them out made every one a false CK302 against production).
    public static func yaml(path: String, selection: ModelSelection = ModelSelection()) throws(InputError) -> String {
        if SchemaSource.isSwiftSource(path: path) { return try swiftDataYAML(path: path, selection: selection).yaml }
        let schema = try CoreDataReader.loadSchema(path: path, selection: selection)
        let version = schema.coreDataModel?.versionName ?? ""
        var header = "# Mapped by 'ckschema import' from the Core Data model \(path), version '\(version)'"
        if let c = selection.configuration { header += ", configuration '\(c)'" }
        header += ".\n# The schema NSPersistentCloudKitContainer mirrors (docs/coredata.md); fields CloudKit creates\n"
            + "# only on demand (CD_<attribute>_ckAsset, CD_moveReceipt) are marked onDemand: true.\n"
        return header + schema.canonicalYAML
    }

    /// What `ckschema import App/Models` gives: the schema SwiftData sources mirror to, its
    /// YAML, and the reader's notes (CK641, CK643, CK644) for the command to show.
    public struct SwiftDataImport: Sendable {
        public var schema: Schema
        /// The schema's YAML, headed by the comment naming the sources (what `writeYAML` gives,
        /// gathered into one text; made when asked for, unless set).
        public var yaml: String {
            get { assigned ?? SchemaEmitter.emit(schema, header: header) }
            set { assigned = newValue }
        }
        public var notes: [Diagnostic]
        /// The comment lines heading the YAML.
        let header: String
        /// The text `yaml` was set to, if it was.
        private var assigned: String?

        init(schema: Schema, header: String, notes: [Diagnostic]) {
            self.schema = schema
            self.header = header
            self.notes = notes
        }

        /// The bytes of `yaml`, given to `chunk` a piece at a time (about 64 KB each, in order)
        /// as they are made, so a large schema's text is never held whole; when `chunk` throws,
        /// no further piece is given and the error is rethrown.
        public func writeYAML<E: Error>(_ chunk: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
            if var assigned {
                var failure: E?
                assigned.withUTF8 { bytes in
                    do throws(E) { try chunk(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
                }
                if let failure { throw failure }
            } else {
                try SchemaEmitter.emit(schema, header: header, chunk: chunk)
            }
        }
    }

    /// `ckschema import App/Models`: the schema SwiftData sources mirror to, as YAML, and the
    /// reader's notes (CK641, CK643, CK644) for the command to show.
    public static func swiftDataYAML(path: String, selection: ModelSelection = ModelSelection()) throws(InputError) -> (yaml: String, notes: [Diagnostic]) {
        let result = try swiftData(path: path, selection: selection)
        return (result.yaml, result.notes)
    }

    /// The schema, YAML and notes of SwiftData sources (`swiftDataYAML`), with the schema.
    public static func swiftData(path: String, selection: ModelSelection = ModelSelection()) throws(InputError) -> SwiftDataImport {
        // The on-demand fields are kept, marked `onDemand: true` (see `yaml(path:selection:)`).
        let schema = try SchemaSource.loadSwiftData(path: path, selection: selection)
        let version = schema.coreDataModel?.versionName ?? ""
        let header = "# Mapped by 'ckschema import' from the SwiftData sources \(path)" + (version.isEmpty ? "" : ", VersionedSchema '\(version)'")
            + ".\n# The schema NSPersistentCloudKitContainer mirrors (docs/swiftdata.md); fields CloudKit creates\n"
            + "# only on demand (CD_<attribute>_ckAsset, CD_moveReceipt) are marked onDemand: true.\n"
        let notes = (schema.coreDataModel?.notes ?? []).compactMap { n in
            (SwiftRules.notes + [InputRules.folderSkipped]).first { $0.code == n.code }.map { Diagnostic(rule: $0, n.message, at: n.origin.location, fix: n.fix) }
        }
        // The header is written into the emitter's text: `header + yaml` copied the whole text.
        return SwiftDataImport(schema: schema, header: header, notes: notes.sortedByLocation())
    }
}

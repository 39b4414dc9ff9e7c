import CKSchemaDiff

/// `ckschema import Model.xcdatamodeld`: the mapped schema as canonical YAML.
public enum CoreDataImport {
    /// The YAML of a model's CloudKit schema, headed by a comment naming the model and the
    /// version (and configuration) it came from. The on-demand fields (`_ckAsset`
    /// companions, `CD_moveReceipt`) are left out: the YAML format cannot say "may be
    /// absent", and a YAML schema that listed them would ask production for fields
    /// CloudKit may never create.
    public static func yaml(path: String, selection: ModelSelection = ModelSelection()) throws(InputError) -> String {
        var schema = try CoreDataReader.loadSchema(path: path, selection: selection)
        for i in schema.recordTypes.indices { schema.recordTypes[i].fields.removeAll(where: \.mayBeAbsent) }
        let version = schema.coreDataModel?.versionName ?? ""
        var header = "# Mapped by 'ckschema import' from the Core Data model \(path), version '\(version)'"
        if let c = selection.configuration { header += ", configuration '\(c)'" }
        header += ".\n# The schema NSPersistentCloudKitContainer mirrors (docs/coredata.md); fields CloudKit creates\n"
            + "# only on demand (CD_<attribute>_ckAsset, CD_moveReceipt) are not listed.\n"
        return header + schema.canonicalYAML
    }
}

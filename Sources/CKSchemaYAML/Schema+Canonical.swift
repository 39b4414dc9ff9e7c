import CKSchemaModel

extension Schema {
    /// The canonical YAML form (what `ckschema fmt` writes, without comments):
    /// the text that plan hashes and store checksums are computed over.
    public var canonicalYAML: String { SchemaEmitter.emit(self) }

    /// Lower-case hex SHA-256 of `canonicalYAML`.
    public var canonicalHash: String { SHA256.hex(canonicalYAML) }
}

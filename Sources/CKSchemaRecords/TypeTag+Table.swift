import CKSchemaWire

/// The record checker's lookup of a type tag straight from the input bytes. It lives with the
/// checker, beside `ByteTable`, so that the lookup run once per field value is inlined into the
/// checker: across the module boundary it was a call and a copy of the table's six arrays per
/// value (+30% instructions for validate, Benchmarks/RESULTS.md, issue 30).
extension TypeTag {
    /// Tag spelling to the tag, encoded in the table's integer (no array access per value),
    /// with `webServicesSpelling` set for the Web Services names (`STRING`, not `stringType`).
    static let table = ByteTable(all.map { (key: $0.0, value: $0.1.encoded | ($0.0.first!.isUppercase ? webServicesSpelling : 0)) })

    /// The table's bit for a Web Services spelling (above the bits `encoded` uses).
    static let webServicesSpelling = 64
}

import CKSchemaConfig

/// A schema prepared for validation: record types and their fields in byte-keyed hash
/// tables, built once and shared read-only by every validating thread.
package final class CompiledSchema: Sendable {
    // Classes, not structs: the checker touches these for every field of every record,
    // and passing one reference costs one retain where a struct of strings costs several.
    final class FieldInfo: Sendable {
        let name: String
        let type: FieldType
        let isEncrypted: Bool
        let isDeprecated: Bool
        /// The record type a reference must point to, when the schema says.
        let referenceTarget: String?

        init(name: String, type: FieldType, isEncrypted: Bool, isDeprecated: Bool, referenceTarget: String?) {
            self.name = name
            self.type = type
            self.isEncrypted = isEncrypted
            self.isDeprecated = isDeprecated
            self.referenceTarget = referenceTarget
        }
    }

    final class TypeInfo: Sendable {
        let name: String
        /// The zone records of this type live in (`_defaultZone` when the schema says none).
        let zone: String
        let isDeprecated: Bool
        let fields: [FieldInfo]
        let fieldTable: ByteTable

        init(name: String, zone: String, isDeprecated: Bool, fields: [FieldInfo], fieldTable: ByteTable) {
            self.name = name
            self.zone = zone
            self.isDeprecated = isDeprecated
            self.fields = fields
            self.fieldTable = fieldTable
        }
    }

    let schema: Schema
    let types: [TypeInfo]
    let typeTable: ByteTable

    package init(_ schema: Schema) {
        self.schema = schema
        var types: [TypeInfo] = []
        for rt in schema.recordTypes {
            let fields = rt.fields.map {
                FieldInfo(name: $0.name, type: $0.type, isEncrypted: $0.isEncrypted, isDeprecated: $0.isDeprecated, referenceTarget: $0.referenceTarget)
            }
            let table = ByteTable(fields.enumerated().map { (key: $0.element.name, value: $0.offset) })
            types.append(TypeInfo(name: rt.name, zone: rt.zone ?? Zone.defaultZoneName, isDeprecated: rt.isDeprecated, fields: fields, fieldTable: table))
        }
        self.types = types
        self.typeTable = ByteTable(types.enumerated().map { (key: $0.element.name, value: $0.offset) })
    }
}

/// A value's declared `type` tag in any of the three record shapes, decoded.
struct TypeTag: Sendable {
    /// nil for an empty list (`EMPTY_LIST`, `emptyListType`), which fits any list type.
    var primitive: PrimitiveType?
    var isList: Bool
    var isEncrypted: Bool

    /// Every spelling the reader accepts: Web Services (`STRING`, `INT64_LIST`,
    /// `ENCRYPTED_STRING`), cktool (`stringType`, `int64ListType`, `encryptedStringType`).
    static let all: [(String, TypeTag)] = {
        var out: [(String, TypeTag)] = []
        let ws: [(String, PrimitiveType)] = [
            ("STRING", .string), ("INT64", .int64), ("DOUBLE", .double), ("BYTES", .bytes), ("TIMESTAMP", .timestamp),
            ("LOCATION", .location), ("REFERENCE", .reference), ("ASSET", .asset), ("ASSETID", .asset), ("NUMBER", .number),
        ]
        for (name, p) in ws {
            out.append((name, TypeTag(primitive: p, isList: false, isEncrypted: false)))
            out.append((name + "_LIST", TypeTag(primitive: p, isList: true, isEncrypted: false)))
            out.append(("ENCRYPTED_" + name, TypeTag(primitive: p, isList: false, isEncrypted: true)))
            out.append(("ENCRYPTED_" + name + "_LIST", TypeTag(primitive: p, isList: true, isEncrypted: true)))
        }
        let ck: [(String, PrimitiveType)] = [
            ("string", .string), ("int64", .int64), ("double", .double), ("bytes", .bytes), ("timestamp", .timestamp),
            ("location", .location), ("reference", .reference), ("asset", .asset), ("number", .number),
        ]
        for (name, p) in ck {
            let cap = name.prefix(1).uppercased() + name.dropFirst()
            out.append((name + "Type", TypeTag(primitive: p, isList: false, isEncrypted: false)))
            out.append((name + "ListType", TypeTag(primitive: p, isList: true, isEncrypted: false)))
            out.append(("encrypted" + cap + "Type", TypeTag(primitive: p, isList: false, isEncrypted: true)))
            out.append(("encrypted" + cap + "ListType", TypeTag(primitive: p, isList: true, isEncrypted: true)))
        }
        out.append(("EMPTY_LIST", TypeTag(primitive: nil, isList: true, isEncrypted: false)))
        out.append(("emptyListType", TypeTag(primitive: nil, isList: true, isEncrypted: false)))
        return out
    }()

    /// Tag spelling to the tag, encoded in the table's integer (no array access per value).
    static let table = ByteTable(all.map { (key: $0.0, value: $0.1.encoded) })

    /// bits 0-3: the primitive's `code` (15: none), 4: list, 5: encrypted.
    var encoded: Int {
        (primitive.map { Int($0.code) } ?? 15) | (isList ? 16 : 0) | (isEncrypted ? 32 : 0)
    }

    init(primitive: PrimitiveType?, isList: Bool, isEncrypted: Bool) {
        self.primitive = primitive
        self.isList = isList
        self.isEncrypted = isEncrypted
    }

    @inline(__always) init(encoded v: Int) {
        primitive = PrimitiveType(code: UInt32(v & 15))
        isList = v & 16 != 0
        isEncrypted = v & 32 != 0
    }

    /// The Web Services spelling of a schema type, for messages.
    static func webServicesName(_ t: FieldType) -> String {
        let base = t.primitive == .asset ? "ASSETID" : t.primitive.rawValue.uppercased()
        return t.isList ? base + "_LIST" : base
    }
}

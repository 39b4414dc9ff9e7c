import CKSchemaModel
import CKSchemaWire

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
        /// The type tags that fit the field's type (`TypeTag.fits`), as bits of two words: bit v
        /// is set for each value v of `TypeTag.table` (0..<128) whose tag fits. The fused path
        /// asks this instead of decoding the tag (encryption is compared apart).
        let tagFits: (UInt64, UInt64)
        /// The entry of `TypeTag.table` of the field's Web Services spelling (`STRING`,
        /// `ENCRYPTED_STRING` when the field is encrypted): the tag the fused path tries first.
        let tagGuess: Int

        init(name: String, type: FieldType, isEncrypted: Bool, isDeprecated: Bool, referenceTarget: String?) {
            self.name = name
            self.type = type
            self.isEncrypted = isEncrypted
            self.isDeprecated = isDeprecated
            self.referenceTarget = referenceTarget
            var fits: (UInt64, UInt64) = (0, 0)
            for (spelling, tag) in TypeTag.all where tag.fits(type) {
                let v = tag.encoded | (spelling.first!.isUppercase ? TypeTag.webServicesSpelling : 0)
                if v < 64 { fits.0 |= 1 << UInt64(v) } else { fits.1 |= 1 << UInt64(v - 64) }
            }
            tagFits = fits
            let guess = Array(((isEncrypted ? "ENCRYPTED_" : "") + TypeTag.webServicesName(type)).utf8)
            tagGuess = guess.withUnsafeBufferPointer { TypeTag.table.entry($0.baseAddress!, $0.count) }
        }

        /// Whether the tag `v` (a value of `TypeTag.table`) fits the field's type.
        @inline(__always) func fits(tag v: Int) -> Bool {
            let word = v < 64 ? tagFits.0 : tagFits.1
            return word >> UInt64(v & 63) & 1 != 0
        }
    }

    final class TypeInfo: Sendable {
        let name: String
        /// The zone records of this type live in (`_defaultZone` when the schema says none).
        let zone: String
        /// `zone`'s UTF-8 bytes, compared with the record's own zone without a String.
        let zoneBytes: [UInt8]
        let isDefaultZone: Bool
        let isDeprecated: Bool
        let fields: [FieldInfo]
        let fieldTable: ByteTable

        init(name: String, zone: String, isDeprecated: Bool, fields: [FieldInfo], fieldTable: ByteTable) {
            self.name = name
            self.zone = zone
            self.zoneBytes = Array(zone.utf8)
            self.isDefaultZone = zone == Zone.defaultZoneName
            self.isDeprecated = isDeprecated
            self.fields = fields
            self.fieldTable = fieldTable
        }
    }

    let schema: Schema
    let types: [TypeInfo]
    let typeTable: ByteTable
    /// Whether the schema says where records live (CK904 is checked only then: a `.ckdb`
    /// export says nothing of zones).
    let namesZones: Bool
    /// The zones the schema declares.
    let zoneNames: Set<String>

    package init(_ schema: Schema) {
        self.schema = schema
        self.namesZones = ZoneRules.namesZones(schema)
        self.zoneNames = Set(schema.zones.map(\.name))
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

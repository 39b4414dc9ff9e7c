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

        init(name: String, type: FieldType, isEncrypted: Bool, isDeprecated: Bool, referenceTarget: String?) {
            self.name = name
            self.type = type
            self.isEncrypted = isEncrypted
            self.isDeprecated = isDeprecated
            self.referenceTarget = referenceTarget
        }
    }

    /// What the fused path (RecordChecker+Fused.swift) reads of a field, with no reference
    /// count: the retain and release of a `FieldInfo` per field were 4% of validate's
    /// instructions once the tape was gone.
    struct FusedField: Sendable {
        let primitive: PrimitiveType
        let isList: Bool
        let isEncrypted: Bool
        let isDeprecated: Bool
        let hasTarget: Bool
        /// The entry of `TypeTag.table` of the field's Web Services spelling (`STRING`,
        /// `ENCRYPTED_STRING` when the field is encrypted): the tag tried first.
        let tagGuess: Int
        /// The type tags that fit the field's type (`TypeTag.fits`), as bits of two words: bit v
        /// is set for each value v of `TypeTag.table` (0..<128) whose tag fits (encryption is
        /// compared apart).
        let tagFits: (UInt64, UInt64)
        /// Where `TypeInfo.affixes` holds `"name":{"value":`, the field's compact start.
        let prefixStart: Int
        let prefixLength: Int
        /// Where `TypeInfo.affixes` holds `,"type":"TAG"}` for the field's own Web Services tag.
        let suffixStart: Int
        let suffixLength: Int

        /// An empty `prefix`: the field has none (`prefixLength` is then longer than any line).
        init(_ f: FieldInfo, prefix: Range<Int>, suffix: Range<Int>) {
            prefixStart = prefix.lowerBound
            prefixLength = prefix.isEmpty ? Int(Int32.max) : prefix.count
            suffixStart = suffix.lowerBound
            suffixLength = suffix.count
            primitive = f.type.primitive
            isList = f.type.isList
            isEncrypted = f.isEncrypted
            isDeprecated = f.isDeprecated
            hasTarget = f.referenceTarget != nil
            var fits: (UInt64, UInt64) = (0, 0)
            for (spelling, tag) in TypeTag.all where tag.fits(f.type) {
                let v = tag.encoded | (spelling.first!.isUppercase ? TypeTag.webServicesSpelling : 0)
                if v < 64 { fits.0 |= 1 << UInt64(v) } else { fits.1 |= 1 << UInt64(v - 64) }
            }
            tagFits = fits
            let guess = Array(Self.tag(of: f).utf8)
            tagGuess = guess.withUnsafeBufferPointer { TypeTag.table.entry($0.baseAddress!, $0.count) }
        }

        /// The field's own Web Services tag: `STRING`, `ENCRYPTED_STRING` when it is encrypted.
        static func tag(of f: FieldInfo) -> String { (f.isEncrypted ? "ENCRYPTED_" : "") + TypeTag.webServicesName(f.type) }

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
        /// `fields` as the fused path reads them, in the same order.
        let fused: [FusedField]
        /// For each field, the start of its compact Web Services value, `"name":{"value":`, and
        /// its end with its own tag, `,"type":"TIMESTAMP"}` (`ENCRYPTED_STRING` for an encrypted
        /// string field): what the fused path matches by bytes.
        let affixes: [UInt8]
        let fieldTable: ByteTable

        init(name: String, zone: String, isDeprecated: Bool, fields: [FieldInfo], fieldTable: ByteTable) {
            self.name = name
            self.zone = zone
            self.zoneBytes = Array(zone.utf8)
            self.isDefaultZone = zone == Zone.defaultZoneName
            self.isDeprecated = isDeprecated
            self.fields = fields
            var affixes: [UInt8] = []
            var fused: [FusedField] = []
            for f in fields {
                // The name as JSON writes it unescaped. A name JSON cannot hold as it is (a
                // quote, a backslash, a control character) gets no prefix: its bytes could
                // match input that is no such key (`"a"b"`), so the key path reads it.
                let prefix = affixes.count
                if f.name.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
                    affixes += Array("\"".utf8) + Array(f.name.utf8) + Array(#"":{"value":"#.utf8)
                }
                let suffix = affixes.count
                affixes += Array(#","type":""#.utf8) + Array(FusedField.tag(of: f).utf8) + Array(#""}"#.utf8)
                fused.append(FusedField(f, prefix: prefix..<suffix, suffix: suffix..<affixes.count))
            }
            affixes.append(0)  // never empty, so its base address exists
            self.fused = fused
            self.affixes = affixes
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

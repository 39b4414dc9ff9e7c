import Foundation
import CKSchemaModel

/// A value's declared `type` tag in the record shapes of CloudKit Web Services (`STRING`,
/// `INT64_LIST`, `ENCRYPTED_STRING`, `ASSETID`, `EMPTY_LIST`) and cktool (`stringType`,
/// `int64ListType`, `encryptedStringType`, `emptyListType`), decoded: the one home of the
/// record wire format's type names. `validate`'s checker, `records import`, the store and the
/// JSON Schema export all read this table (CloudKit Web Services Reference, "Record Field
/// Dictionary": the type names; cktool's record JSON: the `...Type` names).
package struct TypeTag: Sendable, Equatable {
    /// nil for an empty list (`EMPTY_LIST`, `emptyListType`), which fits any list type.
    package var primitive: PrimitiveType?
    package var isList: Bool
    package var isEncrypted: Bool

    /// Every spelling the reader accepts: Web Services (`STRING`, `INT64_LIST`,
    /// `ENCRYPTED_STRING`), cktool (`stringType`, `int64ListType`, `encryptedStringType`).
    package static let all: [(String, TypeTag)] = {
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

    /// bits 0-3: the primitive's `code` (15: none), 4: list, 5: encrypted: the value the
    /// record checker's byte table keeps for each spelling (`TypeTag.table`, CKSchemaRecords).
    @inlinable package var encoded: Int {
        (primitive.map { Int($0.code) } ?? 15) | (isList ? 16 : 0) | (isEncrypted ? 32 : 0)
    }

    package init(primitive: PrimitiveType?, isList: Bool, isEncrypted: Bool) {
        self.primitive = primitive
        self.isList = isList
        self.isEncrypted = isEncrypted
    }

    @inlinable @inline(__always) package init(encoded v: Int) {
        primitive = PrimitiveType(code: UInt32(v & 15))
        isList = v & 16 != 0
        isEncrypted = v & 32 != 0
    }

    /// The tag a spelling stands for, nil for a name that is not a CloudKit type tag.
    package static func named(_ name: String) -> TypeTag? { byName[name] }

    private static let byName: [String: TypeTag] = Dictionary(all, uniquingKeysWith: { first, _ in first })

    /// True when a value written with this tag may be stored in a field of type `t`: the same
    /// primitive and list-ness, INT64 or DOUBLE for a legacy NUMBER field, and an empty list
    /// for any list (encryption is checked apart, against the field's flag).
    @inlinable @inline(__always) package func fits(_ t: FieldType) -> Bool {
        guard let p = primitive else { return t.isList }
        return isList == t.isList && (p == t.primitive || (t.primitive == .number && (p == .int64 || p == .double)))
    }

    /// The Web Services spelling of a schema type (`ASSETID`, `STRING_LIST`).
    package static func webServicesName(_ t: FieldType) -> String {
        let base = t.primitive == .asset ? "ASSETID" : t.primitive.rawValue.uppercased()
        return t.isList ? base + "_LIST" : base
    }

    /// cktool's spelling of a schema type (`stringType`, `assetListType`).
    package static func cktoolName(_ t: FieldType) -> String {
        t.primitive.rawValue + (t.isList ? "ListType" : "Type")
    }

    /// Every spelling a value of a field of type `t` may carry, in plaintext or encrypted form:
    /// Web Services' and cktool's own names first, then the other spellings the table accepts
    /// (`ASSET` beside `ASSETID`, INT64 and DOUBLE for NUMBER, the empty list), in table order.
    package static func spellings(for t: FieldType, encrypted: Bool) -> [String] {
        let ck = cktoolName(t)
        var out = encrypted ? ["ENCRYPTED_" + webServicesName(t), "encrypted" + ck.prefix(1).uppercased() + ck.dropFirst()]
                            : [webServicesName(t), ck]
        for (name, tag) in all where tag.fits(t) && tag.isEncrypted == encrypted && !out.contains(name) && tag.primitive != nil {
            out.append(name)
        }
        return out
    }

    /// The empty list's spellings, which carry no element type and fit any list.
    package static let emptyListSpellings: [String] = all.filter { $0.1.primitive == nil }.map(\.0)
}

/// The value shapes of the record wire format that are text: base64 bytes and ISO 8601
/// timestamps, read the same way by `validate`'s checker (from its tape, without copying)
/// and by `records import` and the store (CloudKit Web Services Reference, "Record Field
/// Dictionary": BYTES is base64, TIMESTAMP milliseconds since 1970; docs/records.md: the plain
/// shape's ISO 8601 text).
package enum WireValue {
    /// The decoded length of standard base64 (padding optional), or nil when it is not base64.
    @inlinable package static func base64Length(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var len = n
        var pad = 0
        while len > 0, p[len - 1] == UInt8(ascii: "="), pad < 2 { len -= 1; pad += 1 }
        if pad > 0, n % 4 != 0 { return nil }
        if len % 4 == 1 { return nil }
        for i in 0..<len {
            let c = p[i]
            let ok = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2F
            if !ok { return nil }
        }
        return len * 3 / 4
    }

    /// True for a timestamp the plain record shape may write as text: `YYYY-MM-DD`,
    /// optionally followed by `THH:MM[:SS[.fff]]` and `Z` or `±HH:MM`, naming a real day and time.
    @inline(__always) package static func isISO8601(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        isoMilliseconds(p, n) != nil
    }

    /// Milliseconds since 1970 of such a timestamp, or nil: `ISOTimestamp`, the one reading of
    /// timestamp text (validate, records import, migration constants and predicates).
    @inline(__always) package static func isoMilliseconds(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int64? {
        ISOTimestamp.milliseconds(p, n)
    }

    /// `base64Length` over a Swift string's bytes.
    package static func base64Length(_ s: String) -> Int? {
        var s = s
        return s.withUTF8 { b in b.baseAddress.map { base64Length($0, b.count) } ?? 0 }
    }

    /// `isoMilliseconds` over a Swift string's bytes.
    package static func isoMilliseconds(_ s: String) -> Int64? { ISOTimestamp.milliseconds(s) }
}

import CKSchemaModel
import CKSchemaWire

/// `validate`'s fused path (issue 36 point 1): the common record, one with nothing to report,
/// read and checked in one pass over its bytes, with no token tape. It reads the line with a
/// zero byte at its end and `JSONTape.padding` bytes readable from there (a chunk's own bytes,
/// `check(inPlace:)`, or the padded copy the tokenizer's fast path reads), so every scan stops
/// at the line's end by itself: a string, a number, a literal and whitespace all end at a zero
/// byte, a word loaded at or before the end stays inside the padding, and a byte string longer
/// than what is left of the line is never compared.
///
/// It knows one shape: the record dictionary of CloudKit Web Services (`recordName`,
/// `recordType`, `zoneID`, `fields`) whose fields are wrapped (`{"value": …, "type": …}`),
/// with plain strings (no escape). Whatever it would have to report, and whatever it does
/// not read (another key, an escape, a field the schema lacks, `encryptedValues`, `parent`,
/// a bare value, a tag that does not fit), makes it give up before it has changed anything;
/// `check` then reads the record again with the tape and the general checks, which alone
/// word the findings. What a clean record leaves (its deleteSelf references, the references
/// `--batch` checks, its batch entry) it keeps aside and applies at the end, through the same
/// functions the general path calls. `FusedPathTests` and Fuzz/FuzzRecords hold both paths
/// to the same result for every fixture and input.
extension RecordChecker {
    /// What differs between checking `p[0..<n]` with `fused` (a checker made with `keepsTokens:
    /// false`) and with `general` (the same, keeping its tokens, so never fused): nil when
    /// nothing does. The differential test (`FusedPathTests`) and Fuzz/FuzzRecords ask it.
    package static func disagreement(_ p: UnsafePointer<UInt8>, _ n: Int, fused: inout RecordChecker, general: inout RecordChecker) -> String? {
        var a = ChunkResult(), b = ChunkResult()
        let ja = fused.check(p, n, index: 0, position: .bytes(line: 0, column: 1), into: &a)
        let jb = general.check(p, n, index: 0, position: .bytes(line: 0, column: 1), into: &b)
        guard ja == jb else { return "the fused path says the record is\(ja ? "" : " not") JSON, the general path the opposite" }
        let x = a.everything, y = b.everything
        return x == y ? nil : "the fused path leaves \(x), the general path \(y)"
    }

    /// Reads the record in `q[0..<ctx.n]`; true when it is clean and its effects are in `r`,
    /// false when the general path must read it (then `r` is as it was).
    mutating func checkFused(_ q: UnsafePointer<UInt8>, _ ctx: inout Context, _ r: inout ChunkResult) -> Bool {
        var f = FusedRecord(q: q, n: ctx.n, effects: fusedEffects.base)
        f.skip()
        let root = f.i
        guard f.open(FusedRecord.openBrace) else { return false }
        // The keys seen (`FusedRecord.Key`'s bits).
        var seen = 0
        var typeIndex = -1
        while true {
            // Which key (`FusedRecord.Key`); a reference's `action` is none of a record's.
            let which = f.key(in: q)
            guard which != 0, which != FusedRecord.Key.action else { return false }
            switch which {
            case FusedRecord.Key.recordName:
                guard seen & 1 == 0, case let (s, e)? = f.string() else { return false }
                ctx.nameStart = s; ctx.nameEnd = e
            case FusedRecord.Key.recordType:
                guard seen & 2 == 0, case let (s, e)? = f.string() else { return false }
                typeIndex = schema.typeTable.lookup(q + s, e - s)
                guard typeIndex >= 0 else { return false }
            case FusedRecord.Key.zoneID:
                // After the fields, a reference's zone would have been compared with the
                // default zone's: the general path reads that record.
                guard seen & (4 | 8) == 0, f.zoneID(&ctx.zoneStart, &ctx.zoneEnd) else { return false }
            case FusedRecord.Key.fields:
                guard seen & 8 == 0, typeIndex >= 0 else { return false }
                guard fields(&f, schema.types[typeIndex], ctx) else { return false }
            default:
                // recordChangeTag, deleted: read, not checked.
                guard seen & which == 0, f.scalar() else { return false }
            }
            seen |= which
            guard let more = f.next(FusedRecord.closeBrace) else { return false }
            if !more { break }
        }
        f.skip()
        guard f.i == ctx.n, typeIndex >= 0 else { return false }
        // The record's own checks (`checkName`, `checkType`), each passed or given up on.
        if seen & 1 != 0 {
            let s = ctx.nameStart, e = ctx.nameEnd
            guard e > s, e - s <= 255, q[s] != UInt8(ascii: "_"),
                  DeleteSelfList.isASCII(UnsafeBufferPointer(start: q + s, count: e - s)) else { return false }
        }
        let type = schema.types[typeIndex]
        guard !type.isDeprecated, f.size <= Self.maxRecordBytes else { return false }
        if checksRecordZones, schema.namesZones, !inZone(ctx, type) { return false }
        ctx.typeIndex = typeIndex
        ctx.type = type
        ctx.size = f.size
        ctx.webServices = f.webServices
        // The record is clean: what the general path would have kept of it, in its order.
        for k in 0..<f.count {
            let e = f.effects[k]
            let field = type.fields[Int(e.field)]
            if e.deleteSelf {
                keepDeleteSelf(ctx, JSONToken(kind: .string, flags: 0, start: e.start, end: e.end, count: 0), at: Int(e.at), field: field.name, &r)
            } else if let target = field.referenceTarget {
                r.references.append(ReferenceCheck(target: Self.text(ctx.p, Int(e.start), Int(e.end), escaped: false),
                                                   expectedType: target, place: place(ctx, Int(e.at), field: field.name)))
            }
        }
        if collectBatch {
            addBatchEntry(JSONToken(kind: .object, flags: 0, start: Int32(truncatingIfNeeded: root), end: 0, count: 0),
                          parentName: nil, parentOffset: 0, ctx, &r)
        }
        return true
    }

    /// The `fields` mapping of a record of `type`: each key a field the schema has, once.
    private func fields(_ f: inout FusedRecord, _ type: CompiledSchema.TypeInfo, _ ctx: Context) -> Bool {
        let q = f.q
        guard f.open(FusedRecord.openBrace) else { return f.close(FusedRecord.closeBrace) }
        // The fields seen (a key twice is the tokenizer's duplicate-key error), and the table
        // entry tried first, as `checkFields` does.
        var seen: (UInt64, UInt64) = (0, 0)
        var guess = 0
        let count = type.fused.count
        return type.affixes.withUnsafeBufferPointer { affixes in
            type.fused.withUnsafeBufferPointer { fused in
                let fused = fused.baseAddress!, affixes = affixes.baseAddress!
                while true {
                    var fi: Int
                    var valueKeyRead = false
                    // The field the schema lists next, as `"name":{"value":`: matched by its bytes
                    // (a field with no prefix has a length no line reaches).
                    if guess < count, f.i + fused[guess].prefixLength <= f.n,
                       ByteTable.same(q + f.i, affixes + fused[guess].prefixStart, fused[guess].prefixLength) {
                        f.i += fused[guess].prefixLength
                        fi = guess
                        guess += 1
                        valueKeyRead = true
                    } else {
                        guard case let (ks, ke)? = f.key() else { return false }
                        fi = type.fieldTable.value(ifEntry: guess, is: q + ks, ke - ks)
                        if fi >= 0 {
                            guess += 1
                        } else {
                            let e = type.fieldTable.entry(q + ks, ke - ks)
                            guard e >= 0 else { return false }
                            fi = type.fieldTable.value(ofEntry: e)
                            guess = e + 1
                        }
                    }
                    guard fi < 128 else { return false }
                    let bit = UInt64(1) << UInt64(fi & 63)
                    if fi < 64 {
                        guard seen.0 & bit == 0 else { return false }
                        seen.0 |= bit
                    } else {
                        guard seen.1 & bit == 0 else { return false }
                        seen.1 |= bit
                    }
                    guard field(&f, fused + fi, index: fi, type, affixes, valueKeyRead: valueKeyRead, ctx) else { return false }
                    guard let more = f.next(FusedRecord.closeBrace) else { return false }
                    if !more { return true }
                }
            }
        }
    }

    /// One wrapped field value, `{"value": …, "type": …, "isEncrypted": …}` in any order: its
    /// tag fits the field, its encryption is the schema's, its value is one the field holds.
    ///
    /// The usual one, Web Services' compact `{"value":…,"type":"TAG"}` with the field's own tag,
    /// is matched by its bytes: `{"value":` by one word (or with the field's name, by `fields`),
    /// and `,"type":"TAG"}` against the bytes the compiled field keeps of it
    /// (`TypeInfo.affixes`), where reading it key by key and looking the tag up cost about a
    /// third of the fused path.
    /// `valueKeyRead`: `fields` matched `"name":{"value":` already. Transparent, as are `value`
    /// and `primitive`: the field loop is one function, its registers kept across a field
    /// (the three calls per field were 88 M instructions).
    @_transparent private func field(_ f: inout FusedRecord, _ info: UnsafePointer<CompiledSchema.FusedField>, index: Int, _ type: CompiledSchema.TypeInfo,
                       _ affixes: UnsafePointer<UInt8>, valueKeyRead: Bool, _ ctx: Context) -> Bool {
        let q = f.q
        // A deprecated field is reported.
        guard !info.pointee.isDeprecated else { return false }
        var hasValue = false, hasTag = false, hasFlag = false
        var encrypted = false
        var more = true
        // `{"value"` as one little-endian word; the padding's zero bytes never match it.
        if valueKeyRead || (UnsafeRawPointer(q).loadUnaligned(fromByteOffset: f.i, as: UInt64.self) == 0x2265_756C_6176_227B && q[f.i + 8] == UInt8(ascii: ":")) {
            if !valueKeyRead { f.i += 9 }
            if q[f.i] <= 0x20 { f.skip() }
            guard value(&f, info, index: index, type, ctx) else { return false }
            hasValue = true
            let length = info.pointee.suffixLength
            if f.i + length <= f.n, ByteTable.same(q + f.i, affixes + info.pointee.suffixStart, length) {
                // The field's own Web Services tag: it fits, and says the field's encryption.
                f.i += length
                f.webServices = true
                return true
            }
            guard let next = f.next(FusedRecord.closeBrace) else { return false }
            more = next
        } else {
            // An empty mapping is a bare value.
            guard f.open(FusedRecord.openBrace) else { return false }
        }
        while more {
            guard case let (ks, ke)? = f.key() else { return false }
            switch ke - ks {
            case 5 where Self.equals(q + ks, "value"):
                guard !hasValue, value(&f, info, index: index, type, ctx) else { return false }
                hasValue = true
            case 4 where Self.equals(q + ks, "type"):
                guard !hasTag, case let (s, e)? = f.string() else { return false }
                hasTag = true
                var ti = typeTags.value(ifEntry: info.pointee.tagGuess, is: q + s, e - s)
                if ti < 0 { ti = typeTags.lookup(q + s, e - s) }
                guard ti >= 0, info.pointee.fits(tag: ti) else { return false }
                if ti & TypeTag.webServicesSpelling != 0 { f.webServices = true }
                if ti & 32 != 0 { encrypted = true }
            case 11 where Self.equals(q + ks, "isEncrypted"):
                guard !hasFlag, let flag = f.boolean() else { return false }
                hasFlag = true
                if flag { encrypted = true }
            default:
                return false
            }
            guard let next = f.next(FusedRecord.closeBrace) else { return false }
            more = next
        }
        return hasValue && encrypted == info.pointee.isEncrypted
    }

    /// A field's value: null, or one value of its type, or a list of them. Transparent, as
    /// `FusedRecord.key()` is: `@inline(__always)` left it a call per field (32 M instructions).
    @_transparent
    private func value(_ f: inout FusedRecord, _ info: UnsafePointer<CompiledSchema.FusedField>, index: Int, _ type: CompiledSchema.TypeInfo, _ ctx: Context) -> Bool {
        if f.null() { return true }
        guard info.pointee.isList else { return primitive(&f, info, index: index, type, ctx) }
        guard f.open(FusedRecord.openBracket) else { return f.close(FusedRecord.closeBracket) }
        while true {
            guard primitive(&f, info, index: index, type, ctx) else { return false }
            guard let more = f.next(FusedRecord.closeBracket) else { return false }
            if !more { return true }
        }
    }

    /// One value of the field's primitive type, as `checkValue` takes it (wrapped, so a
    /// timestamp is a number and an asset a dictionary), its size added.
    @_transparent private func primitive(_ f: inout FusedRecord, _ info: UnsafePointer<CompiledSchema.FusedField>, index: Int, _ type: CompiledSchema.TypeInfo, _ ctx: Context) -> Bool {
        switch info.pointee.primitive {
        case .string:
            guard case let (s, e)? = f.string() else { return false }
            f.size += e - s
        case .int64, .timestamp:
            guard let t = f.number(), t.flags & (JSONToken.integer | JSONToken.overflow) == JSONToken.integer else { return false }
            f.size += 8
        case .double, .number:
            guard let t = f.number() else { return false }
            if t.flags & JSONToken.integer == 0 || t.flags & JSONToken.overflow != 0 {
                guard Self.isFiniteDouble(f.q, t) else { return false }
            }
            f.size += 8
        case .bytes:
            guard case let (s, e)? = f.string(), let size = WireValue.base64Length(f.q + s, e - s) else { return false }
            f.size += size
        case .location:
            return location(&f)
        case .reference:
            return reference(&f, info, index: index, type, ctx)
        case .asset:
            return asset(&f)
        }
        return true
    }

    /// A location dictionary: numeric latitude and longitude within range, and the other keys
    /// of CLLocation's dictionary (CloudKit Web Services Reference, "Location Dictionary")
    /// with scalar values; 8 bytes a member, as `checkValue` counts it.
    private func location(_ f: inout FusedRecord) -> Bool {
        let q = f.q
        var seen = 0, members = 0
        var latitude: JSONToken?, longitude: JSONToken?
        var more = true
        // The usual start, `{"latitude":L,"longitude":L`, matched by its bytes.
        if f.word64(0) == 0x7574_6974_616C_227B, f.word32(8) == 0x3A22_6564 {  // {"latitu de":
            f.i += 12
            guard let t = f.number() else { return false }
            latitude = t
            seen = 1; members = 1
            if f.word64(0) == 0x7469_676E_6F6C_222C, f.word32(8) == 0x2265_6475, q[f.i + 12] == UInt8(ascii: ":") {  // ,"longit ude" :
                f.i += 13
                guard let t = f.number() else { return false }
                longitude = t
                seen = 3; members = 2
            }
            guard let next = f.next(FusedRecord.closeBrace) else { return false }
            more = next
        } else {
            guard f.open(FusedRecord.openBrace) else { return false }
        }
        while more {
            guard case let (ks, ke)? = f.key() else { return false }
            let bit: Int
            let k = q + ks
            switch ke - ks {
            case 8 where Self.equals(k, "latitude"):
                guard seen & 1 == 0, let t = f.number() else { return false }
                latitude = t; bit = 1
            case 9 where Self.equals(k, "longitude"):
                guard seen & 2 == 0, let t = f.number() else { return false }
                longitude = t; bit = 2
            case 8 where Self.equals(k, "altitude"): bit = 4
            case 5 where Self.equals(k, "speed"): bit = 8
            case 6 where Self.equals(k, "course"): bit = 16
            case 9 where Self.equals(k, "timestamp"): bit = 32
            case 18 where Self.equals(k, "horizontalAccuracy"): bit = 64
            case 16 where Self.equals(k, "verticalAccuracy"): bit = 128
            default: return false
            }
            guard seen & bit == 0 else { return false }
            if bit > 2 { guard f.scalar() else { return false } }
            seen |= bit
            members += 1
            guard let next = f.next(FusedRecord.closeBrace) else { return false }
            more = next
        }
        guard let latitude, let longitude, Self.within(q, latitude, 90), Self.within(q, longitude, 180) else { return false }
        f.size += 8 * members
        return true
    }

    /// An asset dictionary (CloudKit Web Services Reference, "Asset Dictionary"), its members
    /// scalars; assets do not count toward the record's size.
    private func asset(_ f: inout FusedRecord) -> Bool {
        let q = f.q
        guard f.open(FusedRecord.openBrace) else { return f.close(FusedRecord.closeBrace) }
        var seen = 0
        while true {
            guard case let (ks, ke)? = f.key() else { return false }
            let bit: Int
            let k = q + ks
            switch ke - ks {
            case 12 where Self.equals(k, "fileChecksum"): bit = 1
            case 4 where Self.equals(k, "size"): bit = 2
            case 17 where Self.equals(k, "referenceChecksum"): bit = 4
            case 11 where Self.equals(k, "wrappingKey"): bit = 8
            case 7 where Self.equals(k, "receipt"): bit = 16
            case 11 where Self.equals(k, "downloadURL"): bit = 32
            default: return false
            }
            guard seen & bit == 0, f.scalar() else { return false }
            seen |= bit
            guard let more = f.next(FusedRecord.closeBrace) else { return false }
            if !more { return true }
        }
    }

    /// A reference: a record name, or the Reference Dictionary (`recordName`, `zoneID`,
    /// `action`, and the `recordType` ckschema reads), as `checkReference` takes it.
    private func reference(_ f: inout FusedRecord, _ info: UnsafePointer<CompiledSchema.FusedField>, index: Int, _ type: CompiledSchema.TypeInfo, _ ctx: Context) -> Bool {
        let q = f.q
        if case let (s, e)? = f.string() {
            f.size += e - s
            if collectBatch, info.pointee.hasTarget {
                guard f.keep(deleteSelf: false, field: index, s, e, at: s - 1) else { return false }
            }
            return true
        }
        guard f.open(FusedRecord.openBrace) else { return false }
        var seen = 0
        var rs = -1, re = -1, zs = -1, ze = -1, actionAt = -1
        while true {
            // Which key (`FusedRecord.Key`): a reference has recordName, recordType, zoneID, action.
            let which = f.key(in: q)
            guard which & (FusedRecord.Key.recordName | FusedRecord.Key.recordType | FusedRecord.Key.zoneID | FusedRecord.Key.action) != 0 else { return false }
            switch which {
            case FusedRecord.Key.recordName:
                guard seen & 1 == 0, case let (s, e)? = f.string() else { return false }
                seen |= 1
                rs = s; re = e
            case FusedRecord.Key.recordType:
                guard seen & 2 == 0, case let (s, e)? = f.string() else { return false }
                seen |= 2
                if info.pointee.hasTarget, let target = type.fields[index].referenceTarget {
                    guard target.utf8.elementsEqual(UnsafeBufferPointer(start: q + s, count: e - s)) else { return false }
                }
            case FusedRecord.Key.zoneID:
                guard seen & 4 == 0, f.zoneID(&zs, &ze) else { return false }
                seen |= 4
            case FusedRecord.Key.action:
                guard seen & FusedRecord.Key.action == 0, case let (s, e)? = f.string() else { return false }
                seen |= FusedRecord.Key.action
                let a = q + s
                switch e - s {
                case 11 where Self.equals(a, "DELETE_SELF"), 10 where Self.equals(a, "deleteSelf"): actionAt = s - 1
                case 4 where Self.equals(a, "NONE") || Self.equals(a, "none"),
                     8 where Self.equals(a, "VALIDATE") || Self.equals(a, "validate"): break
                default: return false
                }
            default:
                return false
            }
            guard let more = f.next(FusedRecord.closeBrace) else { return false }
            if !more { break }
        }
        guard rs >= 0 else { return false }
        f.size += re - rs
        if zs >= 0, !sameZone(ctx, zs, ze) { return false }
        if collectBatch, info.pointee.hasTarget, seen & 2 == 0 {
            guard f.keep(deleteSelf: false, field: index, rs, re, at: rs - 1) else { return false }
        }
        if actionAt >= 0 {
            guard f.keep(deleteSelf: true, field: index, rs, re, at: actionAt) else { return false }
        }
        return true
    }
}

/// What a clean record leaves, kept until its last byte is read: a deleteSelf reference (its
/// target's name and the action's place) or a reference `--batch` checks (its name's place).
struct FusedEffect {
    var deleteSelf: Bool
    var field: Int32
    var start: Int32
    var end: Int32
    var at: Int32
}

/// The fused path's room for effects: one record's, reused for every record.
final class FusedEffects {
    static let capacity = 32
    let base = UnsafeMutablePointer<FusedEffect>.allocate(capacity: FusedEffects.capacity)
    deinit { base.deallocate() }
}

/// The fused path's reading of one padded line: where it is, and what the record holds so far.
struct FusedRecord {
    static let quote = UInt8(ascii: "\"")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

    let q: UnsafePointer<UInt8>
    let n: Int
    var i = 0
    /// The record's non-asset bytes so far, as `checkValue` counts them.
    var size = 0
    var webServices = false
    let effects: UnsafeMutablePointer<FusedEffect>
    var count = 0

    init(q: UnsafePointer<UInt8>, n: Int, effects: UnsafeMutablePointer<FusedEffect>) {
        self.q = q
        self.n = n
        self.effects = effects
    }

    @inline(__always) mutating func skip() { JSONTape.skipSpaces(q, &i) }

    /// The eight (four) bytes at `i + k`, little-endian, for matching a constant key by its
    /// bytes: `k` is at most 8, so the load stays inside the padding; a match never reaches
    /// past the line's zero byte, which no such key holds.
    @inline(__always) func word64(_ k: Int) -> UInt64 { UInt64(littleEndian: UnsafeRawPointer(q).loadUnaligned(fromByteOffset: i + k, as: UInt64.self)) }
    @inline(__always) func word32(_ k: Int) -> UInt32 { UInt32(littleEndian: UnsafeRawPointer(q).loadUnaligned(fromByteOffset: i + k, as: UInt32.self)) }

    /// The contents of the plain string at `i` (no escape, valid UTF-8, no control byte);
    /// `i` is then past its closing quote. Nil for anything else.
    @inline(__always) mutating func string() -> (Int, Int)? {
        guard q[i] == Self.quote else { return nil }
        let end = JSONTape.plainStringEnd(q, n, i + 1)
        guard end >= 0 else { return nil }
        let start = i + 1
        i = end + 1
        return (start, end)
    }

    /// A key and its colon; `i` is then at its value.
    ///
    /// Transparent, not `@inline(__always)`: the optimizer kept that one out of line (a call
    /// for each of the 6.4 M keys of the benchmark's records, 5% of validate's instructions).
    @_transparent mutating func key() -> (Int, Int)? {
        guard q[i] == Self.quote else { return nil }
        let end = JSONTape.plainStringEnd(q, n, i + 1)
        guard end >= 0 else { return nil }
        var j = end + 1
        // Compact JSON, the usual kind, has its colon right after the key and its value
        // right after the colon.
        if q[j] != UInt8(ascii: ":") {
            JSONTape.skipSpaces(q, &j)
            guard q[j] == UInt8(ascii: ":") else { return nil }
        }
        j += 1
        if q[j] <= 0x20 { JSONTape.skipSpaces(q, &j) }
        let start = i + 1
        i = j
        return (start, end)
    }

    /// The keys of a record and of a reference, as bits: what `key(in:)` says it read.
    enum Key {
        static let recordName = 1, recordType = 2, zoneID = 4, fields = 8, recordChangeTag = 16, deleted = 32, action = 64
    }

    /// Reads a key and its colon, `i` then at its value: which of `Key` it is, 0 for another.
    /// The usual ones, compact, are matched by their bytes (`"recordName":` as two overlapping
    /// words, no key read and switched on); any other, or one spaced out, is read and compared.
    /// Transparent: out of line it was a call per key (19 M instructions).
    @_transparent mutating func key(in q: UnsafePointer<UInt8>) -> Int {
        let which: Int
        if word64(0) == 0x4E64_726F_6365_7222, word64(5) == 0x3A22_656D_614E_6472 {  // "recordN rdName":
            i += 13; which = Key.recordName
        } else if word64(0) == 0x5464_726F_6365_7222, word64(5) == 0x3A22_6570_7954_6472 {  // "recordT rdType":
            i += 13; which = Key.recordType
        } else if word64(0) == 0x2244_4965_6E6F_7A22, q[i + 8] == UInt8(ascii: ":") {  // "zoneID" :
            i += 9; which = Key.zoneID
        } else if word64(0) == 0x2273_646C_6569_6622, q[i + 8] == UInt8(ascii: ":") {  // "fields" :
            i += 9; which = Key.fields
        } else if word64(0) == 0x226E_6F69_7463_6122, q[i + 8] == UInt8(ascii: ":") {  // "action" :
            i += 9; which = Key.action
        } else {
            guard case let (ks, ke)? = key() else { return 0 }
            let k = q + ks
            switch ke - ks {
            case 10 where RecordChecker.equals(k, "recordName"): return Key.recordName
            case 10 where RecordChecker.equals(k, "recordType"): return Key.recordType
            case 6 where RecordChecker.equals(k, "zoneID"): return Key.zoneID
            case 6 where RecordChecker.equals(k, "fields"): return Key.fields
            case 6 where RecordChecker.equals(k, "action"): return Key.action
            case 15 where RecordChecker.equals(k, "recordChangeTag"): return Key.recordChangeTag
            case 7 where RecordChecker.equals(k, "deleted"): return Key.deleted
            default: return 0
            }
        }
        if q[i] <= 0x20 { skip() }
        return which
    }

    /// Opens the container `c` that holds something: true with `i` at its first member or
    /// element. False, `i` unmoved, when `c` is not at `i` or it is empty.
    @inline(__always) mutating func open(_ c: UInt8) -> Bool {
        guard q[i] == c else { return false }
        var j = i + 1
        JSONTape.skipSpaces(q, &j)
        guard q[j] != (c == Self.openBrace ? Self.closeBrace : Self.closeBracket) else { return false }
        i = j
        return true
    }

    /// An empty container (`{}` or `[]`, by its closing byte): true, `i` past it.
    @inline(__always) mutating func close(_ c: UInt8) -> Bool {
        guard q[i] == (c == Self.closeBrace ? Self.openBrace : Self.openBracket) else { return false }
        var j = i + 1
        JSONTape.skipSpaces(q, &j)
        guard q[j] == c else { return false }
        i = j + 1
        return true
    }

    /// After a member or element: true past a comma (at the next one), false past the
    /// container's closing byte `c`, nil for anything else.
    @inline(__always) mutating func next(_ c: UInt8) -> Bool? {
        skip()
        let b = q[i]
        if b == UInt8(ascii: ",") {
            i += 1
            skip()
            return true
        }
        guard b == c else { return nil }
        i += 1
        return false
    }

    /// The number at `i`, by the grammar the tokenizer reads it with, and its flags.
    @inline(__always) mutating func number() -> JSONToken? { JSONTape.plainNumber(q, &i) }

    /// `null` at `i`: true, `i` past it.
    @inline(__always) mutating func null() -> Bool { word(0x6C6C_756E, 4) }  // "null"

    /// `true` or `false` at `i`, `i` past it; nil for anything else.
    @inline(__always) mutating func boolean() -> Bool? {
        if word(0x6575_7274, 4) { return true }  // "true"
        if q[i] == UInt8(ascii: "f"), q[i + 4] == UInt8(ascii: "e"), word(0x736C_6166, 4) { i += 1; return false }  // "fals" + "e"
        return nil
    }

    /// The `length` (4) bytes at `i` are `w` (little-endian): `i` past them. The padding keeps
    /// the load inside the copy.
    @inline(__always) private mutating func word(_ w: UInt32, _ length: Int) -> Bool {
        guard UInt32(littleEndian: UnsafeRawPointer(q).loadUnaligned(fromByteOffset: i, as: UInt32.self)) == w else { return false }
        i += length
        return true
    }

    /// A string, a number, `true`, `false` or `null`: a value the checks do not read.
    @inline(__always) mutating func scalar() -> Bool {
        switch q[i] {
        case Self.quote: return string() != nil
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return boolean() != nil
        case UInt8(ascii: "n"): return null()
        default: return number() != nil
        }
    }

    /// A zone ID: its name's bytes in `zs..<ze` (a bare zone name, or the Zone ID dictionary's
    /// `zoneName` beside an `ownerName`), as `RecordChecker.zone(of:)` reads it.
    @inline(__always) mutating func zoneID(_ zs: inout Int, _ ze: inout Int) -> Bool {
        if case let (s, e)? = string() { zs = s; ze = e; return true }
        // The usual one, `{"zoneName":"…"}`, matched by its bytes; anything else from the start.
        if word64(0) == 0x614E_656E_6F7A_227B, word32(8) == 0x3A22_656D {  // {"zoneNa me":
            let start = i
            i += 12
            if case let (s, e)? = string(), q[i] == Self.closeBrace {
                i += 1
                zs = s; ze = e
                return true
            }
            i = start
        }
        guard open(Self.openBrace) else { return close(Self.closeBrace) }
        var seen = 0
        while true {
            guard case let (ks, ke)? = key() else { return false }
            let k = q + ks
            if ke - ks == 8, RecordChecker.equals(k, "zoneName") {
                guard seen & 1 == 0, case let (s, e)? = string() else { return false }
                seen |= 1
                zs = s; ze = e
            } else if ke - ks == 9, RecordChecker.equals(k, "ownerName") {
                guard seen & 2 == 0, string() != nil else { return false }
                seen |= 2
            } else {
                return false
            }
            guard let more = next(Self.closeBrace) else { return false }
            if !more { return true }
        }
    }

    /// Keeps an effect for when the record is known clean; false when there is no room (the
    /// general path then reads the record).
    @inline(__always) mutating func keep(deleteSelf: Bool, field: Int, _ s: Int, _ e: Int, at: Int) -> Bool {
        guard count < FusedEffects.capacity else { return false }
        effects[count] = FusedEffect(deleteSelf: deleteSelf, field: Int32(truncatingIfNeeded: field), start: Int32(truncatingIfNeeded: s),
                                     end: Int32(truncatingIfNeeded: e), at: Int32(truncatingIfNeeded: at))
        count += 1
        return true
    }
}

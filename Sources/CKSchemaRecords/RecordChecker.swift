import Foundation
import CKSchemaModel
import CKSchemaWire

/// Where a record's bytes sit in their file, so that a byte offset becomes a line and column.
package enum RecordPosition {
    /// JSON: the record starts at chunk-local `line` (0-based), 1-based `column`.
    case bytes(line: Int, column: Int)
    /// YAML: JSON offsets mapped back to the YAML node that produced them.
    case yaml(YAMLOffsetMap)
}

/// Checks one record at a time against a compiled schema. One checker per thread; it
/// owns its token tape, so checking a record allocates nothing unless it finds a problem.
package struct RecordChecker {
    let schema: CompiledSchema
    let production: Bool
    let collectBatch: Bool
    /// Leave a record in a zone the schema does not declare to the caller (`records import`
    /// reports it as CK556) rather than report CK904 for it.
    let undeclaredZonesElsewhere: Bool
    /// Whether a record saved outside the zone its type's schema names is reported (CK904).
    /// That is ckschema's rule (the YAML `zone:`), not CloudKit's, so an in-memory CloudKit
    /// (CKSchemaTesting, through `RecordImporter.Options.checksRecordZones`) turns it off: the
    /// check is then not run, rather than run and its finding dropped.
    let checksRecordZones: Bool
    /// Whether `check` may read a record without leaving its token tape (`validate`, which
    /// needs only the findings): a record with nothing to report is then read by the fused
    /// path (RecordChecker+Fused.swift). `records import` reads the tape, so it keeps it.
    let keepsTokens: Bool
    private var tape = JSONTape()
    /// The fused path's effects of the record it is reading, applied once the record is clean.
    let fusedEffects = FusedEffects()
    /// Whether the last `check` was done by the fused path (tests read it).
    package private(set) var lastCheckWasFused = false
    private let cursor = LineCursor()
    /// The type tags' table, held here: reading the static for every field cost a `swift_once` check.
    let typeTags = TypeTag.table

    /// 1 MB of non-asset data per record (CloudKit Web Services Reference, "Data Size
    /// Limits": "Maximum record size (not including Asset fields): 1 MB").
    static let maxRecordBytes = 1_048_576
    static let zoneDefault = Array(Zone.defaultZoneName.utf8)

    package init(schema: CompiledSchema, production: Bool, collectBatch: Bool, undeclaredZonesElsewhere: Bool = false, checksRecordZones: Bool = true,
                 keepsTokens: Bool = true) {
        self.schema = schema
        self.keepsTokens = keepsTokens
        self.undeclaredZonesElsewhere = undeclaredZonesElsewhere
        self.checksRecordZones = checksRecordZones
        self.production = production
        self.collectBatch = collectBatch
    }

    /// Per-record state while checking.
    struct Context {
        var p: UnsafePointer<UInt8>
        var n: Int
        var index: Int
        var position: RecordPosition
        var nameStart = -1
        var nameEnd = -1
        var nameEscaped = false
        var zoneStart = -1
        var zoneEnd = -1
        var typeIndex = -1
        /// The record's type when the schema has it (fetched once per record).
        var type: CompiledSchema.TypeInfo?
        /// The type's name when the schema does not have it.
        var unknownTypeName: String?
        var size = 0
        /// A value carried a Web Services type tag (`STRING`, ...), not cktool's (`stringType`).
        var webServices = false

        var typeName: String? { type?.name ?? unknownTypeName }

        func recordName() -> String? {
            guard nameStart >= 0 else { return nil }
            return RecordChecker.text(p, nameStart, nameEnd, escaped: nameEscaped)
        }
    }

    // MARK: - Entry

    /// Checks the record in `p[0..<n]`, appending findings to `result`. Returns whether the
    /// record is JSON; its tokens are then in `tokens` until the next record (unless the
    /// checker was made with `keepsTokens: false` and the record had nothing to report).
    @discardableResult
    package mutating func check(_ p: UnsafePointer<UInt8>, _ n: Int, index: Int, position: RecordPosition, into result: inout ChunkResult) -> Bool {
        check(p, n, index: index, position: position, into: &result, inPlace: false)
    }

    /// `check` of a record whose buffer has `JSONTape.padding` bytes to spare after it, as a
    /// `RecordChunk`'s has: the fused path reads the record in place, with a zero byte written
    /// at its end for the time (every scan stops there; the bytes after it are only loaded in
    /// the same words), rather than from a padded copy (the copy was 6% of validate).
    @discardableResult
    package mutating func check(inPlace p: UnsafeMutablePointer<UInt8>, _ n: Int, index: Int, position: RecordPosition, into result: inout ChunkResult) -> Bool {
        let saved = p[n]
        p[n] = 0
        defer { p[n] = saved }
        return check(UnsafePointer(p), n, index: index, position: position, into: &result, inPlace: true)
    }

    private mutating func check(_ p: UnsafePointer<UInt8>, _ n: Int, index: Int, position: RecordPosition, into result: inout ChunkResult, inPlace: Bool) -> Bool {
        result.records += 1
        cursor.reset()
        if !keepsTokens, n <= JSONTape.fastLimit {
            // The fused path gives up on anything it would have to report, and on any shape
            // it does not read; the tape and the checks below then read the record afresh.
            var fused = Context(p: p, n: n, index: index, position: position)
            if checkFused(inPlace ? p : tape.storage.padded(p, n), &fused, &result) {
                lastCheckWasFused = true
                return true
            }
            cursor.reset()
        }
        lastCheckWasFused = false
        var ctx = Context(p: p, n: n, index: index, position: position)
        if let error = tape.parse(p, n) {
            result.syntaxErrors += 1
            report(&result, ctx, RecordsRules.syntax, at: error.offset, field: nil, error.message, fix: nil, named: false)
            return false
        }
        checkRecord(tape.tokens, &ctx, &result)
        return true
    }

    /// Only tokenizes the record in `p[0..<n]` into `tokens` (no checks): nil, or what is wrong.
    package mutating func tokenize(_ p: UnsafePointer<UInt8>, _ n: Int) -> JSONSyntaxError? {
        tape.parse(p, n)
    }

    /// The tokens of the last record `check` or `tokenize` read as JSON (valid until the next).
    package var tokens: UnsafeBufferPointer<JSONToken> { tape.tokens }

    // MARK: - Record

    /// Where the record's top-level members are (token indexes, -1 when absent).
    private struct Members {
        var type = -1, fields = -1, encrypted = -1, parent = -1
        /// A key the record dictionary does not have, or one inside `zoneID`: -1 when none
        /// (the usual case; then nothing more is looked at).
        var stray = -1
    }

    /// A record: its shape and members, its name, its type, its fields, its parent, its size.
    private func checkRecord(_ tk: UnsafeBufferPointer<JSONToken>, _ ctx: inout Context, _ r: inout ChunkResult) {
        let root = tk[0]
        guard root.kind == .object else {
            report(&r, ctx, RecordsRules.recordShape, at: Self.at(root), field: nil, "a record must be a mapping with recordType and fields", fix: nil, named: false)
            return
        }
        let m = members(tk, &ctx, &r)
        var misspeltType = false
        if m.stray >= 0 { misspeltType = strayRecordKeys(tk, ctx, &r) }
        if ctx.nameStart >= 0 { checkName(&ctx, &r) }
        guard checkType(tk, m.type, misspeltType: misspeltType, &ctx, &r) else { return }
        if m.fields >= 0 { checkFieldGroup(tk, m.fields, encryptedForm: false, &ctx, &r) }
        if m.encrypted >= 0 { checkFieldGroup(tk, m.encrypted, encryptedForm: true, &ctx, &r) }
        var parentName: String?
        var parentOffset = 0
        if m.parent >= 0, tk[m.parent].kind != .null {
            parentOffset = Int(tk[m.parent].start)
            parentName = checkParent(tk, m.parent, &ctx, &r)
        }
        if ctx.size > Self.maxRecordBytes {
            report(&r, ctx, RecordsRules.recordTooLarge, at: Self.at(root), field: nil,
                   "the record holds \(Self.formatSize(ctx.size)) of non-asset data; CloudKit's limit is 1 MB per record",
                   fix: "move large values into an asset field")
        }
        if collectBatch { addBatchEntry(root, parentName: parentName, parentOffset: parentOffset, ctx, &r) }
    }

    /// Finds the record's members in one pass; notes its name and zone in `ctx` on the way.
    @inline(__always)
    private func members(_ tk: UnsafeBufferPointer<JSONToken>, _ ctx: inout Context, _ r: inout ChunkResult) -> Members {
        let p = ctx.p
        var m = Members()
        var i = 1
        let end = Int(tk[0].end)
        while i < end {
            let key = tk[i]
            let v = i + 1
            let k = p + Int(key.start)
            switch Int(key.end - key.start) {
            case 10:
                if Self.equals(k, "recordName") {
                    let t = tk[v]
                    if t.kind == .string {
                        ctx.nameStart = Int(t.start); ctx.nameEnd = Int(t.end); ctx.nameEscaped = t.flags & JSONToken.escaped != 0
                    } else if t.kind != .null {
                        report(&r, ctx, RecordsRules.recordName, at: Self.at(t), field: nil, "recordName must be a string", fix: nil, named: false)
                    }
                } else if Self.equals(k, "recordType") {
                    m.type = v
                } else if m.stray < 0 { m.stray = i }
            case 6:
                if Self.equals(k, "fields") { m.fields = v }
                else if Self.equals(k, "zoneID") { if zone(of: v, tk, p, &ctx.zoneStart, &ctx.zoneEnd) >= 0, m.stray < 0 { m.stray = i } }
                else if Self.equals(k, "parent") { m.parent = v }
                else if m.stray < 0 { m.stray = i }
            case 15:
                if Self.equals(k, "encryptedValues") { m.encrypted = v }
                else if !Self.equals(k, "recordChangeTag"), m.stray < 0 { m.stray = i }
            case 7:
                // What an export carries beside the record (`records export`, CloudKit's responses).
                if !Self.equals(k, "created"), !Self.equals(k, "deleted"), m.stray < 0 { m.stray = i }
            case 8:
                if !Self.equals(k, "modified"), m.stray < 0 { m.stray = i }
            default:
                if m.stray < 0 { m.stray = i }
            }
            i = Self.skip(tk, v)
        }
        return m
    }

    /// Looks the record type up (`ctx.type`, or `ctx.unknownTypeName`). False when the record
    /// cannot be checked further: no type, or a type production does not have.
    @inline(__always)
    private func checkType(_ tk: UnsafeBufferPointer<JSONToken>, _ typeTok: Int, misspeltType: Bool, _ ctx: inout Context, _ r: inout ChunkResult) -> Bool {
        let p = ctx.p
        guard typeTok >= 0, tk[typeTok].kind == .string else {
            // `"recordtype": ...` was reported with what it probably meant: said once.
            if typeTok < 0, misspeltType { return false }
            report(&r, ctx, RecordsRules.recordShape, at: typeTok >= 0 ? Self.at(tk[typeTok]) : Int(tk[0].start), field: nil,
                   typeTok >= 0 ? "recordType must be a string" : "the record has no recordType", fix: "add \"recordType\": \"<type>\"")
            return false
        }
        let tt = tk[typeTok]
        if tt.flags & JSONToken.escaped != 0 {
            let name = Self.text(p, Int(tt.start), Int(tt.end), escaped: true)
            ctx.typeIndex = Array(name.utf8).withUnsafeBufferPointer { b in schema.typeTable.lookup(b.baseAddress ?? p, b.count) }
        } else {
            ctx.typeIndex = schema.typeTable.lookup(p + Int(tt.start), Int(tt.end - tt.start))
        }
        guard ctx.typeIndex >= 0 else { return unknownType(tt, &ctx, &r) }
        let type = schema.types[ctx.typeIndex]
        ctx.type = type
        if checksRecordZones, schema.namesZones, !inZone(ctx, type) { wrongZone(tt, type, ctx, &r) }
        if type.isDeprecated {
            report(&r, ctx, RecordsRules.deprecatedWritten, at: Self.at(tt), field: nil,
                   "record type '\(type.name)' is deprecated", fix: "stop writing records of this type")
        }
        return true
    }

    /// A type the schema lacks: production refuses the record (false); development creates
    /// the type on first save, so what it would hold is recorded.
    private func unknownType(_ tt: JSONToken, _ ctx: inout Context, _ r: inout ChunkResult) -> Bool {
        let name = Self.text(ctx.p, Int(tt.start), Int(tt.end), escaped: tt.flags & JSONToken.escaped != 0)
        ctx.unknownTypeName = name
        if production {
            report(&r, ctx, RecordsRules.unknownRecordType, at: Self.at(tt), field: nil,
                   "record type '\(name)' is not in the production schema",
                   fix: "add the record type to the schema and promote it, or fix the type name")
            return false
        }
        observe(&r, ctx, type: name, field: nil, fieldType: nil, encrypted: false, newType: true, at: Self.at(tt))
        return true
    }

    /// `fields` or `encryptedValues`: a mapping (checked field by field) or null.
    @inline(__always)
    private func checkFieldGroup(_ tk: UnsafeBufferPointer<JSONToken>, _ obj: Int, encryptedForm: Bool, _ ctx: inout Context, _ r: inout ChunkResult) {
        let t = tk[obj]
        if t.kind == .object {
            checkFields(tk, obj, encryptedForm: encryptedForm, &ctx, &r)
        } else if t.kind != .null {
            report(&r, ctx, RecordsRules.recordShape, at: Self.at(t), field: nil,
                   "\(encryptedForm ? "encryptedValues" : "fields") must be a mapping of field names to values", fix: nil)
        }
    }

    /// What `--batch` and the cross-file reference check need of the record.
    func addBatchEntry(_ root: JSONToken, parentName: String?, parentOffset: Int, _ ctx: Context, _ r: inout ChunkResult) {
        let (line, _, abs) = locate(ctx, Int(root.start))
        let (pl, pc, _) = locate(ctx, parentOffset)
        r.batch.append(BatchEntry(recordIndex: ctx.index, line: line, absoluteLine: abs, size: ctx.size, name: ctx.recordName(),
                                  parent: parentName, parentLine: pl, parentColumn: pc, recordType: ctx.typeName,
                                  webServices: ctx.webServices))
    }

    /// Notes the zone name of the zone ID at `v` in `start..<end`. Returns the first key of
    /// the zone ID dictionary that is not one of its own (`zonename`), or -1.
    @discardableResult
    private func zone(of v: Int, _ tk: UnsafeBufferPointer<JSONToken>, _ p: UnsafePointer<UInt8>, _ start: inout Int, _ end: inout Int) -> Int {
        let z = tk[v]
        if z.kind == .string { start = Int(z.start); end = Int(z.end); return -1 }
        guard z.kind == .object else { return -1 }
        var stray = -1
        var i = v + 1
        while i < Int(z.end) {
            let key = tk[i]
            let len = Int(key.end - key.start)
            if len == 8, Self.equals(p + Int(key.start), "zoneName") {
                if tk[i + 1].kind == .string { start = Int(tk[i + 1].start); end = Int(tk[i + 1].end) }
            } else if stray < 0, !(len == 9 && Self.equals(p + Int(key.start), "ownerName")) {
                if !Self.zoneIDKeys.contains(fieldName(i, tk, p)) { stray = i }
            }
            i = Self.skip(tk, i + 1)
        }
        return stray
    }

    // MARK: - Keys no record has

    /// The keys of a record that validation reads.
    static let recordKeys = ["recordType", "recordName", "zoneID", "fields", "encryptedValues", "parent"]
    /// Keys of CloudKit's record dictionary that validation does not read (CloudKit JS
    /// CloudKit.Record: created, modified, recordChangeTag, deleted, createShortGUID,
    /// shortGUID, share; Web Services lookup responses: pluginFields). Any other key is a
    /// slip (`"feilds"`, `"zone"`) that would leave the record without what it meant to say.
    static let ignoredRecordKeys: Set<String> = ["recordChangeTag", "created", "modified", "deleted", "share", "shortGUID", "createShortGUID", "pluginFields"]
    /// The Zone ID dictionary (CloudKit Web Services Reference, "Zone ID Dictionary": zoneName,
    /// ownerRecordName; cktool's ownerName; CloudKit JS's zoneType).
    static let zoneIDKeys: Set<String> = ["zoneName", "ownerName", "ownerRecordName", "zoneType"]
    /// The Reference Dictionary (recordName, zoneID, action) and the target type ckschema reads.
    static let referenceKeys = ["recordName", "zoneID", "action", "recordType"]
    /// The wrapped shapes of a field value: Web Services' {value, type}, cktool's {type, value}, and isEncrypted.
    static let wrapperKeys = ["value", "type", "isEncrypted"]

    /// Reports every key of the record (and of its zoneID) that is not one of a record's.
    /// Returns whether one of them was probably meant as `recordType`.
    @inline(never)
    private func strayRecordKeys(_ tk: UnsafeBufferPointer<JSONToken>, _ ctx: Context, _ r: inout ChunkResult) -> Bool {
        let p = ctx.p
        var misspeltType = false
        var i = 1
        let end = Int(tk[0].end)
        while i < end {
            let name = fieldName(i, tk, p)
            if name == "zoneID" {
                var s = -1, e = -1
                let z = zone(of: i + 1, tk, p, &s, &e)
                if z >= 0 { strayKeys(tk, object: i + 1, known: Array(Self.zoneIDKeys).sorted(), in: "the zoneID", field: nil, ctx, &r) }
            } else if !Self.recordKeys.contains(name), !Self.ignoredRecordKeys.contains(name) {
                let guess = Suggest.closest(to: name, in: Self.recordKeys + Self.ignoredRecordKeys.sorted())
                if guess == "recordType", Self.memberIndex(tk, p, 0, "recordType") == nil { misspeltType = true }
                report(&r, ctx, RecordsRules.recordShape, at: Self.at(tk[i]), field: nil,
                       "unknown key '\(ControlCharacters.escaped(name))' in the record\(guess.map { "; did you mean '\($0)'?" } ?? "")",
                       fix: guess.map { "rename it to '\($0)'; CloudKit reads no other key, so the record would not hold what this key says" }
                           ?? "a record has recordType, recordName, zoneID, fields, encryptedValues and parent; remove the key")
            }
            i = Self.skip(tk, i + 1)
        }
        return misspeltType
    }

    /// Reports each key of the object at `obj` not in `known`, with the key it probably meant.
    @inline(never)
    private func strayKeys(_ tk: UnsafeBufferPointer<JSONToken>, object obj: Int, known: [String], in place: String, field: String?,
                           _ ctx: Context, _ r: inout ChunkResult) {
        let p = ctx.p
        var i = obj + 1
        let end = Int(tk[obj].end)
        while i < end {
            let name = fieldName(i, tk, p)
            if !known.contains(name) {
                let guess = Suggest.closest(to: name, in: known)
                report(&r, ctx, RecordsRules.recordShape, at: Self.at(tk[i]), field: field,
                       "unknown key '\(ControlCharacters.escaped(name))' in \(place)\(guess.map { "; did you mean '\($0)'?" } ?? "")",
                       fix: guess.map { "rename it to '\($0)'" } ?? "\(place) holds only \(known.joined(separator: ", ")); remove the key")
            }
            i = Self.skip(tk, i + 1)
        }
    }

    /// Whether the record is saved in the zone its type's schema names.
    @inline(__always)
    func inZone(_ ctx: Context, _ type: CompiledSchema.TypeInfo) -> Bool {
        let home = type.zoneBytes
        guard ctx.zoneStart >= 0 else { return type.isDefaultZone }
        let len = ctx.zoneEnd - ctx.zoneStart
        guard len == home.count else { return false }
        return home.withUnsafeBufferPointer { h in memcmp(ctx.p + ctx.zoneStart, h.baseAddress!, len) == 0 }
    }

    /// CK904, as the scan reports it for app code: the record is saved outside its type's zone.
    @inline(never)
    private func wrongZone(_ tt: JSONToken, _ type: CompiledSchema.TypeInfo, _ ctx: Context, _ r: inout ChunkResult) {
        let raw = ctx.zoneStart >= 0 ? Self.text(ctx.p, ctx.zoneStart, ctx.zoneEnd, escaped: false) : Zone.defaultZoneName
        if undeclaredZonesElsewhere, raw != Zone.defaultZoneName, !schema.zoneNames.contains(raw) { return }
        let name = ControlCharacters.escaped(type.name)
        let home = ControlCharacters.escaped(type.zone)
        let zone = ControlCharacters.escaped(raw)
        let at = ctx.zoneStart >= 0 ? ctx.zoneStart - 1 : Self.at(tt)
        let saved = zone == Zone.defaultZoneName ? "the default zone" : "zone '\(zone)'"
        if type.isDefaultZone {
            report(&r, ctx, ZoneRules.wrongZone, at: at, field: nil,
                   "a '\(name)' record is saved in \(saved), but the schema keeps '\(name)' in the default zone",
                   fix: "leave out zoneID to save it in the default zone, or set 'zone: \(zone)' on '\(name)' in the schema")
        } else {
            report(&r, ctx, ZoneRules.wrongZone, at: at, field: nil,
                   "a '\(name)' record is saved in \(saved), but the schema puts '\(name)' in zone '\(home)'",
                   fix: "save it in zone '\(home)': \"zoneID\": {\"zoneName\": \"\(home)\"}")
        }
    }

    /// CKRecord.ID init(recordName:): ASCII only, at most 255 characters, no leading underscore.
    private func checkName(_ ctx: inout Context, _ r: inout ChunkResult) {
        let p = ctx.p
        let s = ctx.nameStart, e = ctx.nameEnd
        var length = e - s
        var ascii = true
        if ctx.nameEscaped {
            let name = Self.text(p, s, e, escaped: true)
            length = name.unicodeScalars.count
            ascii = name.unicodeScalars.allSatisfy(\.isASCII)
        } else {
            for i in s..<e where p[i] >= 0x80 { ascii = false; length = String(decoding: UnsafeBufferPointer(start: p + s, count: e - s), as: UTF8.self).unicodeScalars.count; break }
        }
        if length == 0 {
            report(&r, ctx, RecordsRules.recordName, at: s - 1, field: nil, "the record name is empty", fix: "omit recordName to let CloudKit assign one, or give a name")
        } else if !ascii {
            report(&r, ctx, RecordsRules.recordName, at: s - 1, field: nil, "the record name is not ASCII; CloudKit accepts only ASCII record names", fix: "use ASCII characters only")
        } else if length > 255 {
            report(&r, ctx, RecordsRules.recordName, at: s - 1, field: nil, "the record name is \(length) characters long; CloudKit allows at most 255", fix: "shorten the record name")
        } else if p[s] == UInt8(ascii: "_") {
            report(&r, ctx, RecordsRules.recordName, at: s - 1, field: nil, "the record name starts with an underscore, which CloudKit reserves", fix: "rename the record without the leading underscore")
        }
    }

    private func checkParent(_ tk: UnsafeBufferPointer<JSONToken>, _ v: Int, _ ctx: inout Context, _ r: inout ChunkResult) -> String? {
        let p = ctx.p
        var target = v
        let t = tk[v]
        if t.kind == .object {
            // {value: {...}, type: REFERENCE} or the reference dictionary itself.
            if let inner = member(tk, p, v, "value") { target = inner }
        }
        var name: String?
        var zs = -1, ze = -1
        let tt = tk[target]
        if tt.kind == .string {
            name = Self.text(p, Int(tt.start), Int(tt.end), escaped: tt.flags & JSONToken.escaped != 0)
        } else if tt.kind == .object {
            if let rn = member(tk, p, target, "recordName"), tk[rn].kind == .string {
                name = Self.text(p, Int(tk[rn].start), Int(tk[rn].end), escaped: tk[rn].flags & JSONToken.escaped != 0)
            }
            if let z = member(tk, p, target, "zoneID") { zone(of: z, tk, p, &zs, &ze) }
        }
        if name == nil {
            report(&r, ctx, RecordsRules.recordShape, at: Self.at(t), field: "parent", "parent must be a reference: a record name or {recordName, zoneID}", fix: nil)
        }
        if zs >= 0, !sameZone(ctx, zs, ze) {
            report(&r, ctx, RecordsRules.referenceCrossZone, at: zs - 1, field: "parent",
                   "the parent is in zone '\(Self.text(ctx.p, zs, ze, escaped: false))' but the record is in zone '\(recordZone(ctx))'; a parent must be in the record's zone",
                   fix: "save the record in its parent's zone")
        }
        return name
    }

    /// Keeps a deleteSelf reference to the record `rn` names, to be counted against it over the
    /// whole input (750 at most, CKRecord.Reference): the record's zone (its bytes, or the
    /// default zone's), its own name and the target's, as bytes (texts only when escaped; the
    /// Strings a reference once made here cost about 1,500 instructions).
    func keepDeleteSelf(_ ctx: Context, _ rn: JSONToken, at offset: Int, field: String, _ r: inout ChunkResult) {
        let (line, column, abs) = locate(ctx, offset)
        let p = ctx.p
        func bytes<R>(_ s: Int, _ e: Int, escaped: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            guard escaped else { return body(UnsafeBufferPointer(start: p + s, count: max(0, e - s))) }
            var text = Self.text(p, s, e, escaped: true)
            return text.withUTF8(body)
        }
        func zone<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            guard ctx.zoneStart >= 0 else { return Self.zoneDefault.withUnsafeBufferPointer(body) }
            return body(UnsafeBufferPointer(start: p + ctx.zoneStart, count: max(0, ctx.zoneEnd - ctx.zoneStart)))
        }
        bytes(Int(rn.start), Int(rn.end), escaped: rn.flags & JSONToken.escaped != 0) { target in
            zone { z in
                guard ctx.nameStart >= 0 else {
                    return r.deleteSelf.append(record: ctx.index, zone: z, name: nil, target: target, line: line, column: column, absoluteLine: abs, field: field)
                }
                bytes(ctx.nameStart, ctx.nameEnd, escaped: ctx.nameEscaped) { name in
                    r.deleteSelf.append(record: ctx.index, zone: z, name: name, target: target, line: line, column: column, absoluteLine: abs, field: field)
                }
            }
        }
    }

    private func recordZone(_ ctx: Context) -> String {
        ctx.zoneStart >= 0 ? Self.text(ctx.p, ctx.zoneStart, ctx.zoneEnd, escaped: false) : Zone.defaultZoneName
    }

    func sameZone(_ ctx: Context, _ s: Int, _ e: Int) -> Bool {
        let p = ctx.p
        if ctx.zoneStart >= 0 {
            let len = ctx.zoneEnd - ctx.zoneStart
            guard len == e - s else { return false }
            return memcmp(p + s, p + ctx.zoneStart, len) == 0
        }
        return Self.zoneDefault.withUnsafeBufferPointer { z in
            z.count == e - s && memcmp(p + s, z.baseAddress!, z.count) == 0
        }
    }

    // MARK: - Fields

    private func checkFields(_ tk: UnsafeBufferPointer<JSONToken>, _ obj: Int, encryptedForm: Bool, _ ctx: inout Context, _ r: inout ChunkResult) {
        let p = ctx.p
        let end = Int(tk[obj].end)
        var i = obj + 1
        let type = ctx.type
        // The table's entry after the last field found: records of one type mostly list their
        // fields in one order, the schema's, so it is tried first, checked by its bytes, before
        // the table is hashed into (the same field either way: a table's keys are distinct).
        var guess = 0
        while i < end {
            let key = tk[i]
            let v = i + 1
            var fi = -1
            if let type {
                if key.flags & JSONToken.escaped != 0 {
                    let name = Array(Self.text(p, Int(key.start), Int(key.end), escaped: true).utf8)
                    fi = name.withUnsafeBufferPointer { b in type.fieldTable.lookup(b.baseAddress ?? p, b.count) }
                } else {
                    let kp = p + Int(key.start), kn = Int(key.end - key.start)
                    fi = type.fieldTable.value(ifEntry: guess, is: kp, kn)
                    if fi >= 0 {
                        guess += 1
                    } else {
                        let e = type.fieldTable.entry(kp, kn)
                        if e >= 0 { fi = type.fieldTable.value(ofEntry: e); guess = e + 1 }
                    }
                }
            }
            checkField(tk, fieldIndex: fi, key: i, value: v, encryptedForm: encryptedForm, &ctx, &r)
            i = Self.skip(tk, v)
        }
    }

    /// A field as written: a bare value, or the wrapped form `{value, type, isEncrypted}`.
    private struct FieldShape {
        /// The value's token; -1 when the wrapper has a type but no value.
        var value: Int
        /// The type tag's token, or -1.
        var tag = -1
        var encrypted: Bool
        var wrapped = false
        /// A key of the value's mapping other than value, type and isEncrypted, or -1: in a
        /// wrapped value, a slip (`"valeu"`); in a plain one (a location), its own key.
        var stray = -1
    }

    /// One field: its shape and type tag, then, for a field the schema has, its declaration
    /// (deprecation, encryption, tag) and its value; for another, what CloudKit would do.
    private func checkField(_ tk: UnsafeBufferPointer<JSONToken>, fieldIndex fi: Int, key: Int, value: Int, encryptedForm: Bool,
                            _ ctx: inout Context, _ r: inout ChunkResult) {
        var shape = fieldShape(tk, value, encryptedForm: encryptedForm, ctx.p)
        if shape.wrapped, shape.stray >= 0 {
            strayKeys(tk, object: value, known: Self.wrapperKeys, in: "the field's value", field: fieldName(key, tk, ctx.p), ctx, &r)
        }
        var tag: TypeTag?
        if shape.tag >= 0 {
            // Looked up here rather than in a function of its own: validate ran 1.4% more
            // instructions when the compiler kept that function out of line (measured).
            let t = tk[shape.tag]
            var ti = -1
            if t.kind == .string, t.flags & JSONToken.escaped == 0 { ti = typeTags.lookup(ctx.p + Int(t.start), Int(t.end - t.start)) }
            guard ti >= 0 else {
                unknownTag(tk, t, schemaEncrypted: fi >= 0 && ctx.type!.fields[fi].isEncrypted, shape, key: key, &ctx, &r)
                return
            }
            tag = TypeTag(encoded: ti)
            if ti & TypeTag.webServicesSpelling != 0 { ctx.webServices = true }
            if tag!.isEncrypted { shape.encrypted = true }
        }
        guard fi >= 0 else {
            unknownField(tk, key: key, value: shape.value, tag: tag, encrypted: shape.encrypted, &ctx, &r)
            return
        }
        let f = ctx.type!.fields[fi]
        guard checkDeclaration(tk, f, key: key, shape, tag: tag, &ctx, &r) else { return }
        guard shape.value >= 0 else {
            report(&r, ctx, RecordsRules.wrongValueType, at: Self.at(tk[value]), field: f.name, "the field has a type but no value", fix: "add \"value\"")
            return
        }
        checkFieldValue(tk, shape.value, f, plain: !shape.wrapped, &ctx, &r)
    }

    /// Reads the wrapper's `value`, `type` and `isEncrypted` members, if the value is one.
    @inline(__always)
    private func fieldShape(_ tk: UnsafeBufferPointer<JSONToken>, _ value: Int, encryptedForm: Bool, _ p: UnsafePointer<UInt8>) -> FieldShape {
        var shape = FieldShape(value: value, encrypted: encryptedForm)
        let vt = tk[value]
        guard vt.kind == .object else { return shape }
        var i = value + 1
        let end = Int(vt.end)
        while i < end {
            let k = tk[i]
            let len = Int(k.end - k.start)
            if len == 5, Self.equals(p + Int(k.start), "value") { shape.value = i + 1; shape.wrapped = true }
            else if len == 4, Self.equals(p + Int(k.start), "type") { shape.tag = i + 1; shape.wrapped = true }
            else if len == 11, Self.equals(p + Int(k.start), "isEncrypted") {
                shape.wrapped = true
                if tk[i + 1].kind == .trueValue { shape.encrypted = true }
            } else if shape.stray < 0 { shape.stray = i }
            i = Self.skip(tk, i + 1)
        }
        if shape.wrapped, shape.value == value { shape.value = -1 }  // a type with no value
        return shape
    }

    /// A type tag that names no CloudKit type.
    private func unknownTag(_ tk: UnsafeBufferPointer<JSONToken>, _ t: JSONToken, schemaEncrypted: Bool, _ shape: FieldShape, key: Int,
                            _ ctx: inout Context, _ r: inout ChunkResult) {
        let p = ctx.p
        // Quote the tag only when it looks like a type name and the field is not
        // encrypted: whatever sits beside an encrypted value stays out of messages.
        var shown = t.kind == .string ? "" : " (a \(Self.kindName(t)))"
        if t.kind == .string, !shape.encrypted, !schemaEncrypted, t.flags & JSONToken.escaped == 0, t.end - t.start <= 40,
           (Int(t.start)..<Int(t.end)).allSatisfy({ p[$0] < 0x80 && (p[$0] == 0x5F || (p[$0] | 0x20 >= 0x61 && p[$0] | 0x20 <= 0x7A)) }) {
            shown = " '" + Self.text(p, Int(t.start), Int(t.end), escaped: false) + "'"
        }
        report(&r, ctx, RecordsRules.typeTagMismatch, at: Self.at(t), field: fieldName(key, tk, p),
               "the type tag\(shown) is not a CloudKit field type", fix: "use a Web Services type (STRING, INT64, ...) or a cktool type (stringType, ...)")
    }

    /// What the schema declares against what the record writes: a deprecated field, the
    /// encryption, the type tag. False when the value is not worth checking (the tag disagrees).
    @inline(__always)
    private func checkDeclaration(_ tk: UnsafeBufferPointer<JSONToken>, _ f: CompiledSchema.FieldInfo, key: Int, _ shape: FieldShape, tag: TypeTag?,
                                  _ ctx: inout Context, _ r: inout ChunkResult) -> Bool {
        if f.isDeprecated {
            report(&r, ctx, RecordsRules.deprecatedWritten, at: Self.at(tk[key]), field: f.name,
                   "the field is deprecated", fix: "stop writing it; the schema keeps it only because production cannot delete it")
        }
        if shape.encrypted != f.isEncrypted { encryptionMismatch(f, at: Self.at(tk[key]), ctx, &r) }
        guard let tag else { return true }
        let fits = tag.fits(f.type)
        if !fits {
            let t = tk[shape.tag]
            report(&r, ctx, RecordsRules.typeTagMismatch, at: Self.at(t), field: f.name,
                   "type tag '\(Self.text(ctx.p, Int(t.start), Int(t.end), escaped: false))' disagrees with the schema, which declares \(f.type)",
                   fix: "write it as \(TypeTag.webServicesName(f.type)), or change the schema")
        }
        return fits
    }

    private func encryptionMismatch(_ f: CompiledSchema.FieldInfo, at offset: Int, _ ctx: Context, _ r: inout ChunkResult) {
        if f.isEncrypted {
            report(&r, ctx, RecordsRules.encryptionMismatch, at: offset, field: f.name,
                   "encrypted in the schema but written in plaintext form",
                   fix: "write it as encrypted: type ENCRYPTED_\(TypeTag.webServicesName(f.type)), cktool's encrypted…Type, or under encryptedValues")
        } else {
            report(&r, ctx, RecordsRules.encryptionMismatch, at: offset, field: f.name,
                   "not encrypted in the schema but written as encrypted",
                   fix: "write it in plaintext form, or add a new encrypted field (CloudKit cannot encrypt an existing field)")
        }
    }

    /// The value of a field the schema has: null is always allowed; a list element by element.
    @inline(__always)
    private func checkFieldValue(_ tk: UnsafeBufferPointer<JSONToken>, _ v: Int, _ f: CompiledSchema.FieldInfo, plain: Bool,
                                 _ ctx: inout Context, _ r: inout ChunkResult) {
        let t = tk[v]
        if t.kind == .null { return }
        guard f.type.isList else {
            if let problem = checkValue(tk, v, f, plain: plain, &ctx, &r) {
                report(&r, ctx, RecordsRules.wrongValueType, at: Self.at(t), field: f.name, problem, fix: nil)
            }
            return
        }
        guard t.kind == .array else {
            report(&r, ctx, RecordsRules.wrongListElement, at: Self.at(t), field: f.name,
                   "expected a list (\(f.type)) but found \(Self.article(t))", fix: "wrap the value in a list")
            return
        }
        var e = v + 1
        var n = 0
        let end = Int(t.end)
        while e < end {
            if let problem = checkValue(tk, e, f, plain: plain, &ctx, &r) {
                report(&r, ctx, RecordsRules.wrongListElement, at: Self.at(tk[e]), field: f.name,
                       "element \(n) of the \(f.type) list: \(problem)", fix: nil)
                return
            }
            n += 1
            e = Self.skip(tk, e)
        }
    }

    /// Checks one (non-list) value against the field's primitive type and adds its size.
    /// Returns what is wrong, or nil. The text never quotes the value.
    private func checkValue(_ tk: UnsafeBufferPointer<JSONToken>, _ v: Int, _ f: CompiledSchema.FieldInfo, plain: Bool,
                            _ ctx: inout Context, _ r: inout ChunkResult) -> String? {
        let t = tk[v]
        let p = ctx.p
        switch f.type.primitive {
        case .string:
            guard t.kind == .string else { return "expected a string but found \(Self.article(t))" }
            ctx.size += Int(t.end - t.start)
        case .int64:
            guard t.kind == .number else { return "expected an int64 but found \(Self.article(t))" }
            guard t.flags & JSONToken.integer != 0 else { return "expected an int64 but found a fractional number" }
            guard t.flags & JSONToken.overflow == 0 else { return "the integer is out of range for INT64" }
            ctx.size += 8
        case .double, .number:
            guard t.kind == .number else { return "expected a number but found \(Self.article(t))" }
            // 1e400 is valid JSON but no double: CloudKit refuses infinity (and the store
            // would keep null). Only numbers with a fraction, an exponent or too many digits
            // are parsed, so plain integers cost nothing more.
            if t.flags & JSONToken.integer == 0 || t.flags & JSONToken.overflow != 0 {
                guard Self.isFiniteDouble(p, t) else { return "the number is out of range for a double (CloudKit refuses infinity)" }
            }
            ctx.size += 8
        case .timestamp:
            if t.kind == .number {
                guard t.flags & JSONToken.integer != 0, t.flags & JSONToken.overflow == 0 else {
                    return "a timestamp is whole milliseconds since 1970"
                }
            } else if t.kind == .string, plain {
                guard WireValue.isISO8601(p + Int(t.start), Int(t.end - t.start)) else {
                    return "the timestamp is not ISO 8601 (2024-05-01T12:00:00Z)"
                }
            } else {
                return "expected a timestamp (milliseconds since 1970\(plain ? " or ISO 8601" : "")) but found \(Self.article(t))"
            }
            ctx.size += 8
        case .bytes:
            guard t.kind == .string else { return "expected base64 bytes but found \(Self.article(t))" }
            guard let size = WireValue.base64Length(p + Int(t.start), Int(t.end - t.start)) else { return "the bytes are not valid base64" }
            ctx.size += size
        case .location:
            guard t.kind == .object else { return "expected a location {latitude, longitude} but found \(Self.article(t))" }
            guard let lat = member(tk, p, v, "latitude"), let lon = member(tk, p, v, "longitude"),
                  tk[lat].kind == .number, tk[lon].kind == .number else {
                return "a location needs numeric latitude and longitude"
            }
            guard Self.within(p, tk[lat], 90), Self.within(p, tk[lon], 180) else {
                return "latitude must be within ±90 and longitude within ±180"
            }
            ctx.size += 8 * Int(t.count)
        case .reference:
            return checkReference(tk, v, f, &ctx, &r)
        case .asset:
            // Assets are stored apart from the record and do not count toward its size.
            guard t.kind == .object || (plain && t.kind == .string) else {
                return "expected an asset (a dictionary with fileChecksum, size, ...\(plain ? ", or a file path" : "")) but found \(Self.article(t))"
            }
            if t.kind == .string {
                // A local file: its size is checked where the record's file is known (50 MB).
                r.assetPaths.append(AssetPath(path: Self.text(p, Int(t.start), Int(t.end), escaped: t.flags & JSONToken.escaped != 0),
                                              place: place(ctx, Self.at(t), field: f.name)))
            }
        }
        return nil
    }

    private func checkReference(_ tk: UnsafeBufferPointer<JSONToken>, _ v: Int, _ f: CompiledSchema.FieldInfo,
                                _ ctx: inout Context, _ r: inout ChunkResult) -> String? {
        let t = tk[v]
        let p = ctx.p
        if t.kind == .string {
            ctx.size += Int(t.end - t.start)
            if collectBatch, let target = f.referenceTarget {
                r.references.append(ReferenceCheck(target: Self.text(p, Int(t.start), Int(t.end), escaped: t.flags & JSONToken.escaped != 0),
                                                   expectedType: target, place: place(ctx, Self.at(t), field: f.name)))
            }
            return nil
        }
        guard t.kind == .object else { return "expected a reference {recordName, zoneID, action} but found \(Self.article(t))" }
        // One pass over the reference's keys: what each names, and whether one is stray.
        var rn = -1, z = -1, rt = -1, a = -1
        var stray = false
        var i = v + 1
        while i < Int(t.end) {
            let k = tk[i]
            let kp = p + Int(k.start)
            switch Int(k.end - k.start) {
            case 10 where Self.equals(kp, "recordName"): if rn < 0 { rn = i + 1 }
            case 10 where Self.equals(kp, "recordType"): if rt < 0 { rt = i + 1 }
            case 6 where Self.equals(kp, "zoneID"): if z < 0 { z = i + 1 }
            case 6 where Self.equals(kp, "action"): if a < 0 { a = i + 1 }
            default:
                // An escaped key is compared by its text, as `strayKeys` reports it.
                if !stray { stray = k.flags & JSONToken.escaped == 0 || !Self.referenceKeys.contains(fieldName(i, tk, p)) }
            }
            i = Self.skip(tk, i + 1)
        }
        if stray {
            strayKeys(tk, object: v, known: Self.referenceKeys, in: "the reference", field: f.name, ctx, &r)
        }
        guard rn >= 0, tk[rn].kind == .string else { return "a reference needs a recordName" }
        ctx.size += Int(tk[rn].end - tk[rn].start)
        if z >= 0 {
            var zs = -1, ze = -1
            if zone(of: z, tk, p, &zs, &ze) >= 0 {
                strayKeys(tk, object: z, known: Array(Self.zoneIDKeys).sorted(), in: "the reference's zoneID", field: f.name, ctx, &r)
            }
            if zs >= 0, !sameZone(ctx, zs, ze) {
                report(&r, ctx, RecordsRules.referenceCrossZone, at: zs - 1, field: f.name,
                       "the reference points into zone '\(Self.text(p, zs, ze, escaped: false))' but the record is in zone '\(recordZone(ctx))'; CloudKit references stay within one zone",
                       fix: "store both records in one zone")
            }
        }
        if collectBatch, let target = f.referenceTarget, rt < 0 {
            // The reference does not say what it points at: check against the target
            // record's own type once every file has been read.
            r.references.append(ReferenceCheck(target: Self.text(p, Int(tk[rn].start), Int(tk[rn].end), escaped: tk[rn].flags & JSONToken.escaped != 0),
                                               expectedType: target, place: place(ctx, Self.at(tk[rn]), field: f.name)))
        }
        if let target = f.referenceTarget, rt >= 0, tk[rt].kind == .string {
            let given = Self.text(p, Int(tk[rt].start), Int(tk[rt].end), escaped: tk[rt].flags & JSONToken.escaped != 0)
            if given != target {
                report(&r, ctx, RecordsRules.referenceTargetType, at: Self.at(tk[rt]), field: f.name,
                       "the reference points at a '\(given)' record but the schema says the field points at '\(target)'",
                       fix: "point it at a '\(target)' record")
            }
        }
        if a >= 0, tk[a].kind == .string {
            // The action's raw bytes (an escaped action is none of these).
            let at = tk[a]
            let ap = p + Int(at.start)
            let isDeleteSelf: Bool
            switch Int(at.end - at.start) {
            case 11 where Self.equals(ap, "DELETE_SELF"), 10 where Self.equals(ap, "deleteSelf"): isDeleteSelf = true
            case 4 where Self.equals(ap, "NONE") || Self.equals(ap, "none"),
                 8 where Self.equals(ap, "VALIDATE") || Self.equals(ap, "validate"): isDeleteSelf = false
            default: return "reference action must be NONE, DELETE_SELF or VALIDATE"
            }
            if isDeleteSelf {
                keepDeleteSelf(ctx, tk[rn], at: Self.at(at), field: f.name, &r)
            }
        }
        return nil
    }

    // MARK: - Development: fields CloudKit would add

    private func unknownField(_ tk: UnsafeBufferPointer<JSONToken>, key: Int, value v: Int, tag: TypeTag?, encrypted: Bool,
                              _ ctx: inout Context, _ r: inout ChunkResult) {
        let p = ctx.p
        let name = Self.text(p, Int(tk[key].start), Int(tk[key].end), escaped: tk[key].flags & JSONToken.escaped != 0)
        let typeName = ctx.typeName ?? "?"
        if production {
            // The exact refusal CloudKit gives for a key the production schema lacks.
            report(&r, ctx, RecordsRules.unknownFieldProduction, at: Self.at(tk[key]), field: name,
                   "Cannot create or modify field '\(name)' in record '\(typeName)' in production schema",
                   fix: "add the field in development and promote the schema before writing it")
            return
        }
        // CloudKit adds a field just in time only under a name it accepts (`CloudKitRules`).
        if let v = CloudKitRules.fieldNameViolation(name, inType: typeName) {
            report(&r, ctx, CloudKitRule.invalidName.info, at: Self.at(tk[key]), field: name, v.message, fix: "rename the key; CloudKit refuses to create a field with this name")
            return
        }
        var type: FieldType?
        if let tag, let tp = tag.primitive { type = FieldType(tp, isList: tag.isList) }
        else if v >= 0 { type = Self.inferType(tk, p, v) }
        if let type, !type.isList, type.primitive != .reference, type.primitive != .asset, v >= 0 {
            // Count its size as CloudKit will.
            let f = CompiledSchema.FieldInfo(name: name, type: type, isEncrypted: encrypted, isDeprecated: false, referenceTarget: nil)
            // A value no field of that type can hold is refused, new field or not.
            if let problem = checkValue(tk, v, f, plain: tag == nil, &ctx, &r) {
                report(&r, ctx, RecordsRules.wrongValueType, at: Self.at(tk[v]), field: name, problem, fix: nil)
            }
        }
        observe(&r, ctx, type: typeName, field: name, fieldType: type, encrypted: encrypted, newType: false, at: Self.at(tk[key]))
    }

    private func observe(_ r: inout ChunkResult, _ ctx: Context, type: String, field: String?, fieldType: FieldType?, encrypted: Bool, newType: Bool, at offset: Int) {
        let key = type + "\u{0}" + (field ?? "") + "\u{0}" + (fieldType?.description ?? "?")
        guard r.inferredSeen.insert(key).inserted else { return }
        let (line, column, abs) = locate(ctx, offset)
        r.inferred.append(InferredObservation(recordType: type, field: field, type: fieldType, isEncrypted: encrypted, isNewType: newType,
                                              recordIndex: ctx.index, line: line, column: column, absoluteLine: abs, recordName: ctx.recordName()))
    }

    /// The type CloudKit's development schema would give a field from its value.
    static func inferType(_ tk: UnsafeBufferPointer<JSONToken>, _ p: UnsafePointer<UInt8>, _ v: Int) -> FieldType? {
        let t = tk[v]
        switch t.kind {
        case .string: return FieldType(.string)
        case .number: return FieldType(t.flags & JSONToken.integer != 0 ? .int64 : .double)
        case .object:
            var i = v + 1
            var sawRecordName = false, sawLatitude = false, sawAsset = false
            while i < Int(t.end) {
                let k = tk[i]
                let s = text(p, Int(k.start), Int(k.end), escaped: false)
                if s == "recordName" { sawRecordName = true }
                if s == "latitude" { sawLatitude = true }
                if s == "fileChecksum" || s == "downloadURL" || s == "receipt" { sawAsset = true }
                i = skip(tk, i + 1)
            }
            if sawLatitude { return FieldType(.location) }
            if sawRecordName { return FieldType(.reference) }
            if sawAsset { return FieldType(.asset) }
            return nil
        case .array:
            guard t.count > 0, let e = inferType(tk, p, v + 1), !e.isList else { return nil }
            return FieldType(e.primitive, isList: true)
        default: return nil
        }
    }

    // MARK: - Reporting

    private func fieldName(_ key: Int, _ tk: UnsafeBufferPointer<JSONToken>, _ p: UnsafePointer<UInt8>) -> String {
        Self.text(p, Int(tk[key].start), Int(tk[key].end), escaped: tk[key].flags & JSONToken.escaped != 0)
    }

    /// Chunk-local line, column, and whether the line is absolute (YAML).
    /// The place of a value of the record being checked, kept for a check after the chunk.
    func place(_ ctx: Context, _ offset: Int, field: String) -> RecordPlace {
        let (line, column, abs) = locate(ctx, offset)
        return RecordPlace(recordIndex: ctx.index, line: line, column: column, absoluteLine: abs, recordName: ctx.recordName(), field: field)
    }

    private func locate(_ ctx: Context, _ offset: Int) -> (Int, Int, Bool) {
        switch ctx.position {
        case .yaml(let map):
            let (l, c) = map.position(of: offset)
            return (l, c, true)
        case .bytes(let line, let column):
            let p = ctx.p
            let off = min(max(offset, 0), ctx.n)
            // Diagnostics of a record come in increasing offsets: go on from the last one, so
            // that a record with N findings costs O(N) here, not O(N^2) (20,000 unknown
            // fields on one line took 18 s when every finding rescanned the record).
            let c = cursor
            if c.offset > off { c.reset() }
            var lines = c.lines, lastNL = c.lastNL, col = c.column
            // The newlines by memchr, then the column as the characters after the last one
            // (UTF-8 bytes that are not continuation bytes), eight bytes at a time: a byte-wise
            // loop here was 4% of validate, as every deleteSelf reference is placed.
            var i = c.offset
            while i < off, let nl = memchr(p + i, 0x0A, off - i) {
                let k = UnsafeRawPointer(nl).assumingMemoryBound(to: UInt8.self) - p
                lines += 1; lastNL = k; col = 1; i = k + 1
            }
            col += UTF8Counting.scalars(p + i, off - i)
            c.offset = off; c.lines = lines; c.lastNL = lastNL; c.column = col
            return (line + lines, lastNL < 0 ? column + col - 1 : col, false)
        }
    }

    /// Where `locate` stopped in the current record (line count, last newline, column).
    private final class LineCursor {
        var offset = 0, lines = 0, lastNL = -1, column = 1
        func reset() { offset = 0; lines = 0; lastNL = -1; column = 1 }
    }

    private func report(_ r: inout ChunkResult, _ ctx: Context, _ rule: RuleInfo, at offset: Int, field: String?, _ message: String, fix: String?, named: Bool = true) {
        let (line, column, abs) = locate(ctx, offset)
        r.diagnostics.append(PendingDiagnostic(code: rule.code, severity: rule.defaultSeverity, recordIndex: ctx.index, line: line, column: column,
                                               absoluteLine: abs, recordName: named ? ctx.recordName() : nil, field: field, message: message, fix: fix))
    }

    // MARK: - Byte helpers

    /// Where a token starts in the record, for messages: a string at its opening quote.
    @inline(__always) static func at(_ t: JSONToken) -> Int { t.kind == .string ? Int(t.start) - 1 : Int(t.start) }

    @inline(__always) static func skip(_ tk: UnsafeBufferPointer<JSONToken>, _ v: Int) -> Int {
        let t = tk[v]
        return t.kind == .object || t.kind == .array ? Int(t.end) : v + 1
    }

    /// Compares `s.count` bytes at `p` with a short constant (inlined, a word at a time: no
    /// memcmp call, and no loop over the bytes, which was 1.6% of validate).
    @inline(__always) static func equals(_ p: UnsafePointer<UInt8>, _ s: StaticString) -> Bool {
        ByteTable.same(p, s.utf8Start, s.utf8CodeUnitCount)
    }

    /// The value token of `key` in the object at `obj`, or nil.
    static func memberIndex(_ tk: UnsafeBufferPointer<JSONToken>, _ p: UnsafePointer<UInt8>, _ obj: Int, _ key: StaticString) -> Int? {
        var i = obj + 1
        let end = Int(tk[obj].end)
        while i < end {
            let k = tk[i]
            if Int(k.end - k.start) == key.utf8CodeUnitCount, Self.equals(p + Int(k.start), key) { return i + 1 }
            i = Self.skip(tk, i + 1)
        }
        return nil
    }

    /// The value token of `key` in the object at `obj`, or nil.
    private func member(_ tk: UnsafeBufferPointer<JSONToken>, _ p: UnsafePointer<UInt8>, _ obj: Int, _ key: StaticString) -> Int? {
        guard tk[obj].kind == .object else { return nil }
        return Self.memberIndex(tk, p, obj, key)
    }

    static func kindName(_ t: JSONToken) -> String {
        switch t.kind {
        case .object: "mapping"
        case .array: "list"
        case .string: "string"
        case .number: t.flags & JSONToken.integer != 0 ? "integer" : "number"
        case .trueValue, .falseValue: "boolean"
        case .null: "null"
        }
    }

    static func article(_ t: JSONToken) -> String {
        let k = kindName(t)
        return k == "integer" ? "an integer" : "a \(k)"
    }

    /// The text of `p[s..<e]`, with JSON escapes decoded when `escaped`.
    static func text(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, escaped: Bool) -> String {
        let raw = UnsafeBufferPointer(start: p + s, count: max(0, e - s))
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        return JSONString.unescaped(UnsafeRawBufferPointer(raw))
    }

    /// Whether a JSON number token lies within ±limit, reading its integer digits (no
    /// conversion to Double unless it has an exponent or is exactly at the limit).
    @inline(__always) static func within(_ p: UnsafePointer<UInt8>, _ t: JSONToken, _ limit: Int) -> Bool {
        var i = Int(t.start)
        let e = Int(t.end)
        if p[i] == UInt8(ascii: "-") { i += 1 }
        var v = 0
        while i < e, p[i] >= 0x30, p[i] <= 0x39, v <= limit { v = v * 10 + Int(p[i] - 0x30); i += 1 }
        if i < e, p[i] >= 0x30, p[i] <= 0x39 { return false }  // more digits: too large
        if v < limit {
            if i < e, p[i] == UInt8(ascii: ".") { i += 1; while i < e, p[i] >= 0x30, p[i] <= 0x39 { i += 1 } }
            if i == e { return true }
        }
        return abs(double(p, t)) <= Double(limit)
    }

    /// Whether a JSON number token is a finite double. One without an exponent and of fewer
    /// than 300 characters is below 10^300 and so always is; only the others are read (a
    /// `strtod` for every fractional value was 5% of validate).
    @inline(__always) static func isFiniteDouble(_ p: UnsafePointer<UInt8>, _ t: JSONToken) -> Bool {
        let s = Int(t.start), e = Int(t.end)
        if e - s < 300 {
            var k = s
            while k < e, p[k] | 0x20 != UInt8(ascii: "e") { k += 1 }
            if k == e { return true }
        }
        return double(p, t).isFinite
    }

    /// A JSON number token's value (strtod over a stack copy: no String per value).
    static func double(_ p: UnsafePointer<UInt8>, _ t: JSONToken) -> Double {
        let n = Int(t.end - t.start)
        guard n < 64 else { return Double(text(p, Int(t.start), Int(t.end), escaped: false)) ?? .nan }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { buf in
            let b = buf.baseAddress!
            UnsafeMutableRawPointer(b).copyMemory(from: p + Int(t.start), byteCount: n)
            b[n] = 0
            return strtod(b, nil)
        }
    }

    static func formatSize(_ n: Int) -> String {
        n >= 1_048_576 ? String(format: "%.2f MB", Double(n) / 1_048_576) : String(format: "%.1f KB", Double(n) / 1024)
    }
}

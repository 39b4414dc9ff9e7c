import Foundation
import CKSchemaModel
import CKSchemaStore

/// A `CloudRecord` as the records importer reads it (the CloudKit Web Services shape, one
/// NDJSON line), and a stored record back as a `CloudRecord`: the fake's only translation.
/// Every rule the line meets is the importer's (`records import`), not this file's.
enum RecordCoding {
    /// A date as CloudKit's whole milliseconds since 1970, or nil when it has none (not
    /// finite, or out of Int64's range): never a trap.
    static func milliseconds(_ date: Date) -> Int64? {
        Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The Web Services type tag of a value (nil for an empty or mixed list, or a list of
    /// lists: the checker infers or refuses it).
    static func tag(_ v: CloudValue) -> String? {
        guard case .list(let items) = v else { return scalarTag(v) }
        guard let first = items.first, let t = scalarTag(first), items.allSatisfy({ scalarTag($0) == t }) else { return nil }
        return t + "_LIST"
    }

    /// The tag of a value that is not a list (nil for a list).
    private static func scalarTag(_ v: CloudValue) -> String? {
        switch v {
        case .string: "STRING"
        case .int64: "INT64"
        case .double: "DOUBLE"
        case .timestamp: "TIMESTAMP"
        case .bytes: "BYTES"
        case .location: "LOCATION"
        case .reference, .referenceInZone: "REFERENCE"
        case .asset: "ASSETID"
        case .list: nil
        }
    }

    /// How deep lists are written: CloudKit's lists are flat, and the checker refuses a list
    /// in a list whatever it holds, so a list below the second level is written empty (the
    /// same refusal) rather than recursed into without bound.
    static let listDepth = 2

    /// Writes the value's JSON in the Web Services shape straight into `out` (no `JSONValue`
    /// built per value: a save renders up to 400 records a request). A timestamp that is not
    /// a finite number of milliseconds is written as a double the checker refuses (never a
    /// trap). Numbers and strings go through `JSONValue`'s one writer and one escaper.
    static func write(_ v: CloudValue, zone: String, to out: inout [UInt8], depth: Int = 0) {
        switch v {
        case .string(let s): JSONValue.quote(s, into: &out)
        case .int64(let i): JSONValue.int(i).write(to: &out)
        case .double(let d): JSONValue.double(d).write(to: &out)
        case .timestamp(let date):
            if let i = RecordCoding.milliseconds(date) { JSONValue.int(i).write(to: &out); return }
            let ms = (date.timeIntervalSince1970 * 1000).rounded()
            JSONValue.double(ms.isFinite ? ms : .greatestFiniteMagnitude).write(to: &out)
        case .bytes(let d): JSONValue.quote(d.base64EncodedString(), into: &out)
        case .location(let lat, let lon):
            append("{\"latitude\":", to: &out)
            JSONValue.double(lat).write(to: &out)
            append(",\"longitude\":", to: &out)
            JSONValue.double(lon).write(to: &out)
            out.append(UInt8(ascii: "}"))
        case .reference(let name, let action):
            write(.referenceInZone(recordName: name, zoneName: zone, action: action), zone: zone, to: &out)
        case .referenceInZone(let name, let targetZone, let action):
            append("{\"recordName\":", to: &out)
            JSONValue.quote(name, into: &out)
            append(",\"zoneID\":{\"zoneName\":", to: &out)
            JSONValue.quote(targetZone, into: &out)
            append(action == .deleteSelf ? "},\"action\":\"DELETE_SELF\"}" : "},\"action\":\"NONE\"}", to: &out)
        case .asset(let url):
            append("{\"downloadURL\":", to: &out)
            JSONValue.quote(url.absoluteString, into: &out)
            out.append(UInt8(ascii: "}"))
        case .list(let items):
            out.append(UInt8(ascii: "["))
            if depth < listDepth {
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    write(item, zone: zone, to: &out, depth: depth + 1)
                }
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// Appends a literal's bytes.
    @inline(__always) private static func append(_ s: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The record as one NDJSON line for `RecordImporter`: written straight into bytes (each
    /// request renders up to 400 of them), every value by `write(_:zone:to:)` and every string
    /// by the one JSON escaper. Fields in name order, so the stored JSON does not depend on a
    /// dictionary's order.
    static func line(_ r: CloudRecord) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        func group(_ values: [String: CloudValue]) {
            out.append(UInt8(ascii: "{"))
            for (i, (name, v)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.quote(name, into: &out)
                append(":{\"value\":", to: &out)
                write(v, zone: r.id.zoneName, to: &out)
                if let t = tag(v) {
                    append(",\"type\":\"", to: &out)
                    out.append(contentsOf: t.utf8)
                    out.append(UInt8(ascii: "\""))
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "}"))
        }
        append("{\"recordName\":", to: &out)
        JSONValue.quote(r.id.recordName, into: &out)
        append(",\"recordType\":", to: &out)
        JSONValue.quote(r.recordType, into: &out)
        append(",\"zoneID\":{\"zoneName\":", to: &out)
        JSONValue.quote(r.id.zoneName, into: &out)
        out.append(UInt8(ascii: "}"))
        if let tag = r.recordChangeTag {
            append(",\"recordChangeTag\":", to: &out)
            JSONValue.quote(tag, into: &out)
        }
        append(",\"fields\":", to: &out)
        group(r.values)
        if !r.encrypted.values.isEmpty {
            append(",\"encryptedValues\":", to: &out)
            group(r.encrypted.values)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// A stored value (the store's form: `docs/store.md`) as a `CloudValue` of the field's type.
    static func value(_ stored: JSONValue, type: FieldType?) -> CloudValue? {
        if let type, type.isList {
            guard let items = stored.arrayValue else { return nil }
            let element = FieldType(type.primitive, preferred: type.preferred)
            return .list(items.compactMap { value($0, type: element) })
        }
        switch type?.primitive {
        case .string?: return stored.stringValue.map { .string($0) }
        case .int64?: return stored.int64Value.map { .int64($0) }
        case .double?: return stored.doubleValue.map { .double($0) }
        case .number?: return type?.preferred == .int64 ? stored.int64Value.map { .int64($0) } : stored.doubleValue.map { .double($0) }
        case .timestamp?: return stored.int64Value.map { .timestamp(Date(timeIntervalSince1970: Double($0) / 1000)) }
        case .bytes?: return stored.stringValue.flatMap { Data(base64Encoded: $0) }.map { .bytes($0) }
        case .location?:
            guard let lat = stored["latitude"]?.doubleValue, let lon = stored["longitude"]?.doubleValue else { return nil }
            return .location(latitude: lat, longitude: lon)
        case .reference?:
            guard let name = stored["recordName"]?.stringValue else { return nil }
            let action = stored["action"]?.stringValue
            return .reference(recordName: name, action: action == "DELETE_SELF" || action == "deleteSelf" ? .deleteSelf : .none)
        case .asset?:
            let text = stored["downloadURL"]?.stringValue ?? stored["path"]?.stringValue ?? ""
            return URL(string: text).map { .asset($0) }
        case nil:
            // A key the schema does not know (never in production): kept in its JSON kind.
            switch stored {
            case .string(let s): return .string(s)
            case .int(let i): return .int64(i)
            case .double(let d): return .double(d)
            case .bool(let b): return .int64(b ? 1 : 0)
            case .array(let items): return .list(items.compactMap { value($0, type: nil) })
            default: return nil
            }
        }
    }

    /// A stored row as a `CloudRecord`, its values typed by the schema's record type.
    static func record(_ row: RecordRows.Row, stored: JSONValue, type: RecordType?) -> CloudRecord {
        record(row, fields: stored.objectValue ?? [], type: type)
    }

    /// A record from its row and its stored fields (the store's form, or the fields the importer
    /// just wrote: `RecordImporter.SavedRecord`), each value typed by the schema's field.
    static func record(_ row: RecordRows.Row, fields: [(String, JSONValue)], type: RecordType?) -> CloudRecord {
        var r = CloudRecord(recordType: row.recordType, recordName: row.recordName, zoneName: row.zone)
        r.values.reserveCapacity(fields.count)
        for (key, v) in fields {
            // The schema's field read in place (a copy of a `Field` retains each of its strings).
            var fieldType: FieldType?
            var encrypted = false
            if let type, let i = type.fields.firstIndex(where: { $0.name == key }) {
                fieldType = type.fields[i].type
                encrypted = type.fields[i].isEncrypted
            }
            guard let value = value(v, type: fieldType) else { continue }
            if encrypted { r.encrypted[key] = value } else { r[key] = value }
        }
        r.setSystemFields(changeTag: row.changeTag, created: Date(timeIntervalSince1970: Double(row.createdAt) / 1000),
                          modified: Date(timeIntervalSince1970: Double(row.modifiedAt) / 1000))
        return r
    }
}

import Foundation
import CKSchemaModel
import CKSchemaWire

/// How a field's value is kept in the store's `fields` JSON, and how it converts from and to
/// the CloudKit Web Services record shape (`{"value": ..., "type": "STRING"}`).
///
/// Storage: string, int64 and double as JSON strings and numbers; timestamp as integer
/// milliseconds since 1970 (as Web Services sends it); bytes as base64 text; reference,
/// location and asset as the Web Services object; a list as a JSON array of those.
package enum FieldValue {
    /// Why a value does not fit a field's type.
    package struct Mismatch: Error { package var message: String }

    private static func fail<T>(_ m: String) -> Result<T, Mismatch> { .failure(Mismatch(message: m)) }

    /// The Web Services type name a stored value is written with (`STRING`, `INT64_LIST`,
    /// `ASSETID`): the wire format's own name (`TypeTag.webServicesName`), except that a legacy
    /// NUMBER field's value is written as the type it holds.
    package static func webServicesType(_ t: FieldType) -> String {
        guard t.primitive == .number else { return TypeTag.webServicesName(t) }
        let base = t.preferred == .int64 ? "INT64" : "DOUBLE"
        return t.isList ? base + "_LIST" : base
    }

    /// Converts a Web Services value to its stored form, or says why it does not fit `type`.
    /// `plain`: the value was written bare (`fields: {f: value}`, docs/records.md), where a
    /// timestamp may be ISO 8601 text and an asset a file path, as `validate` accepts them.
    package static func storage(fromWebServices v: JSONValue, type: FieldType, plain: Bool = false) -> Result<JSONValue, Mismatch> {
        if type.isList {
            guard let items = v.arrayValue else { return fail("expected a list of \(type.primitive.rawValue), found \(v.kindName)") }
            var out: [JSONValue] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                switch scalar(item, type.primitive, preferred: type.preferred, plain: plain) {
                case .success(let s): out.append(s)
                case .failure(let m): return fail("item \(i + 1): \(m.message)")
                }
            }
            return .success(.array(out))
        }
        return scalar(v, type.primitive, preferred: type.preferred, plain: plain)
    }

    private static func scalar(_ v: JSONValue, _ p: PrimitiveType, preferred: PrimitiveType?, plain: Bool) -> Result<JSONValue, Mismatch> {
        switch p {
        case .string:
            if case .string = v { return .success(v) }
        case .int64:
            if case .int = v { return .success(v) }
            if case .double(let d) = v, let i = Int64(exactly: d) { return .success(.int(i)) }
        case .double:
            // JSON has no infinity: 1e400 parses as one, and would be stored as null. CloudKit
            // refuses non-finite doubles (CKRecord: "NaN and infinity are not supported").
            if let d = v.doubleValue {
                guard d.isFinite else { return fail("the value is not a finite double (CloudKit refuses infinity and NaN)") }
                return .success(.double(d))
            }
        case .number:
            if preferred == .int64, case .int = v { return .success(v) }
            if let d = v.doubleValue {
                guard d.isFinite else { return fail("the value is not a finite number (CloudKit refuses infinity and NaN)") }
                return .success(preferred == .int64 ? v : .double(d))
            }
        case .timestamp:
            if let i = v.int64Value { return .success(.int(i)) }
            if plain, case .string(let s) = v { return milliseconds(iso: s).map { .int($0) } }
            if case .double(let d) = v {
                // Milliseconds since 1970 must fit an int64: 1e19 would trap a plain conversion.
                guard d.isFinite, let i = Int64(exactly: d.rounded()) else {
                    return fail("the timestamp is outside the range of milliseconds since 1970 that an int64 holds")
                }
                return .success(.int(i))
            }
        case .bytes:
            // Padding optional, as validate's checker reads it (WireValue.base64Length).
            if case .string(let s) = v, WireValue.base64Length(s) != nil { return .success(v) }
            if case .string = v { return fail("expected base64 bytes, found text that is not base64") }
        case .reference:
            if case .object = v, v["recordName"]?.stringValue != nil { return .success(v) }
            if case .string(let s) = v { return .success(.object([("recordName", .string(s))])) }
            return fail("expected a reference ({\"recordName\": ...}), found \(v.kindName)")
        case .location:
            if case .object = v, v["latitude"]?.doubleValue != nil, v["longitude"]?.doubleValue != nil { return .success(v) }
            return fail("expected a location ({\"latitude\": ..., \"longitude\": ...}), found \(v.kindName)")
        case .asset:
            if case .object = v { return .success(v) }
            // The plain shape names a local file (`"cover": "photos/lake.jpg"`), kept as its path.
            if plain, case .string(let s) = v { return .success(.object([("path", .string(s))])) }
            return fail("expected an asset object, found \(v.kindName)")
        }
        return fail("expected \(p.rawValue), found \(v.kindName)")
    }

    /// Milliseconds since 1970 of ISO 8601 text, as the record checker reads it (WireValue).
    package static func milliseconds(iso text: String) -> Result<Int64, Mismatch> {
        guard let ms = WireValue.isoMilliseconds(text) else {
            return fail("'\(text)' is not a timestamp (ISO 8601 like 2024-01-31T12:00:00Z, or milliseconds since 1970)")
        }
        return .success(ms)
    }

    /// The stored form of a migration constant (YAML text), or why it does not fit `type`.
    package static func storage(fromConstant text: String, quoted: Bool, type: FieldType) -> Result<JSONValue, Mismatch> {
        guard !type.isList else { return fail("a list field needs a list value (`value: [a, b]`)") }
        switch type.primitive {
        case .string:
            return .success(.string(text))
        case .int64:
            guard !quoted, let i = Int64(text) else { return fail("'\(text)' is not an int64") }
            return .success(.int(i))
        case .double, .number:
            guard !quoted, let d = Double(text), d.isFinite else { return fail("'\(text)' is not a number") }
            return .success(.double(d))
        case .timestamp:
            if !quoted, let i = Int64(text) { return .success(.int(i)) }
            return milliseconds(iso: text).map { .int($0) }
        case .bytes:
            guard WireValue.base64Length(text) != nil else { return fail("'\(text)' is not base64") }
            return .success(.string(text))
        case .reference:
            guard !text.isEmpty else { return fail("a reference needs a record name") }
            return .success(.object([("recordName", .string(text))]))
        case .location, .asset:
            return fail("a \(type.primitive.rawValue) cannot be backfilled with a constant")
        }
    }

    /// The Web Services `{value, type}` of a stored value (`ENCRYPTED_STRING` for an encrypted field).
    package static func webServices(_ stored: JSONValue, field: Field?) -> JSONValue {
        guard let field else {
            // A field the schema no longer has: keep its value, guess nothing.
            return .object([("value", stored)])
        }
        let name = (field.isEncrypted ? "ENCRYPTED_" : "") + webServicesType(field.type)
        return .object([("value", stored), ("type", .string(name))])
    }
}

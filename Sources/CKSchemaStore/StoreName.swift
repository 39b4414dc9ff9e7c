import CKSchemaDiagnostics
import CKSchemaModel

/// The one place a record type or field name becomes part of SQL text.
///
/// Values are always bound (`?`). A name cannot be bound where SQLite needs it as text: the
/// JSON path of an expression index (`json_extract(fields, '$.title')` must match the query's
/// expression to serve it) and the name of an index, FTS table or trigger. Such a name is
/// checked here, at the point of use, against CloudKit's name grammar (letters, digits and
/// `_`, starting with a letter; CloudKit's system types add dotted names like
/// `cloudkit.share`), and only then quoted into the SQL. A name that fails the check never
/// reaches SQLite: the caller gets CK560 whatever lint said (a suppression comment silences
/// style findings, never this one). See `docs/security.md`.
///
/// Source: CloudKit Console, "Creating a record type" ("names must start with a letter and
/// contain only letters, numbers, and underscores"); CKRecord, "Supported key names"
/// (https://developer.apple.com/documentation/cloudkit/ckrecord).
package enum StoreName {
    /// A name refused at the point where it would have become SQL text.
    package struct Unsafe: Error, Sendable {
        var name: String
        var what: String
        var owner: String? = nil

        package var diagnostic: Diagnostic {
            Diagnostic(rule: SecurityRules.unsafeStoreName,
                   "\(what) '\(name)'\(owner.map { " of '\($0)'" } ?? "") cannot reach the store: it is not a CloudKit name (a letter, then letters, digits and '_', at most 255)",
                   at: nil, fix: "rename it in the schema or migration; a '# ckschema-disable CK101' comment does not let it into the store")
        }
    }

    /// True when `name` can be written into SQL text: CloudKit's name grammar
    /// (`CloudKitRules.isValidName`), or dot-separated parts of that grammar for system
    /// types' names (`cloudkit.share`); each part starts with a letter or `_`.
    static func isSafe(_ name: String) -> Bool {
        if CloudKitRules.isValidName(name) { return true }
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        var partStart = true
        for c in bytes {
            let letter = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A)
            let digit = c >= 0x30 && c <= 0x39
            if c == 0x2E {
                if partStart { return false }
                partStart = true
                continue
            }
            if partStart {
                guard letter || c == 0x5F else { return false }
                partStart = false
            } else if !(letter || digit || c == 0x5F) {
                return false
            }
        }
        return !partStart
    }

    /// Throws `Unsafe` unless `name` passes `isSafe`.
    static func check(_ name: String, _ what: String, of owner: String? = nil) throws(Unsafe) {
        guard isSafe(name) else { throw Unsafe(name: name, what: what, owner: owner) }
    }

    /// The SQL string literal of the JSON path to `field` (and `then`, a key inside its
    /// value): `'$.title'`, or `'$."cloudkit.title"'` for a dotted name, so that a dot in
    /// a name is not read as a path step. Plain names keep the unquoted form every store
    /// already has in its index definitions.
    package static func jsonPath(_ field: String, then key: String? = nil) throws(Unsafe) -> String {
        try check(field, "field")
        let step = field.utf8.contains(0x2E) ? "\"\(field)\"" : field
        if let key {
            try check(key, "key")
            return "'$.\(step).\(key)'"
        }
        return "'$.\(step)'"
    }
}

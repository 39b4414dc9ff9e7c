import CKSchemaModel

/// A JSON Schema (draft 2020-12) of the YAML schema format and of `ckschema.yaml`, for
/// editors (yaml-language-server completes keys and refuses unknown ones and misspelled
/// types). Values come from the enums the decoders read (`PrimitiveType`, `IndexKind`, ...);
/// each mapping's keys are checked against the decoders' key lists by
/// `JSONSchemaFormatTests.keysAreTheDecodersKeys`, so a key added to the format without its
/// description here fails a test. Descriptions follow docs/schema-format.md.
public enum FormatJSONSchema {
    /// Where the schema says it lives (docs/ckschema.schema.json, kept current by a test); `init` writes a copy as `Schemas/ckschema.schema.json`.
    public static let id = "https://raw.githubusercontent.com/ckschema/ckschema/main/docs/ckschema.schema.json"
    /// The file name `init` gives it.
    public static let fileName = "ckschema.schema.json"

    /// The whole document, pretty-printed.
    public static func render() -> String { document.rendered(pretty: true) + "\n" }

    static var document: JSONValue {
        .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string(id)),
            ("title", .string("ckschema: a CloudKit schema file or ckschema.yaml")),
            ("description", .string("A YAML schema file (docs/schema-format.md) or the repository's ckschema.yaml.")),
            ("anyOf", .array([.object([("$ref", .string("#/$defs/schemaFile"))]), .object([("$ref", .string("#/$defs/configFile"))])])),
            ("$defs", .object([
                ("schemaFile", schemaFile), ("configFile", configFile),
                ("zone", zone), ("recordType", recordType), ("field", field), ("fieldType", fieldType),
                ("indexes", indexes), ("query", query), ("subscription", subscription), ("database", enumeration(Database.allCases.map(\.rawValue), "A CloudKit database.")),
                ("capabilities", list(enumeration(ZoneCapability.allCases.map(\.rawValue), "A zone capability (CKRecordZone.Capabilities)."), "Zone capabilities.")),
                ("version", .object([("description", .string("The format version.")), ("const", .int(Schema.formatVersion))])),
                ("container", .object([("type", .string("string")), ("description", .string("The iCloud container identifier: iCloud. and a reverse-DNS name.")),
                                       ("pattern", .string("^iCloud\\.[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)+$"))])),
            ])),
        ])
    }

    static func string(_ description: String) -> JSONValue {
        .object([("type", .string("string")), ("description", .string(description))])
    }

    static func bool(_ description: String) -> JSONValue {
        .object([("type", .string("boolean")), ("description", .string(description))])
    }

    static func enumeration(_ values: [String], _ description: String) -> JSONValue {
        .object([("description", .string(description)), ("enum", .array(values.map(JSONValue.string)))])
    }

    /// A list; the decoders also read one item alone, or null for none (`NodeDecoder.stringList`).
    static func list(_ item: JSONValue, _ description: String) -> JSONValue {
        .object([
            ("description", .string(description)),
            ("anyOf", .array([.object([("type", .string("array")), ("items", item)]), item, .object([("type", .string("null"))])])),
        ])
    }

    static func ref(_ name: String) -> JSONValue { .object([("$ref", .string("#/$defs/" + name))]) }

    /// A mapping with exactly these keys, each optional unless `required`.
    static func object(_ description: String, _ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("type", .string("object")), ("description", .string(description)),
            ("properties", .object(properties)), ("additionalProperties", .bool(false)),
        ]
        if !required.isEmpty { pairs.append(("required", .array(required.map(JSONValue.string)))) }
        return .object(pairs)
    }

    static func map(_ description: String, values: JSONValue) -> JSONValue {
        .object([("type", .string("object")), ("description", .string(description)), ("additionalProperties", values)])
    }

    static var schemaFile: JSONValue {
        let properties: [(String, JSONValue)] = [
            ("ckschema", ref("version")),
            ("partial", bool("true: the schema describes only what a Core Data model or SwiftData mirrors (ckschema import of a model writes it): a CD_ type or field it omits is not described, never removed.")),
            ("container", ref("container")),
            ("roles", list(string("A custom role name (CREATE ROLE)."), "Custom security roles; _world, _icloud and _creator are built in.")),
            ("zones", map("Custom record zones by name.", values: ref("zone"))),
            ("recordTypes", map("Record types by name (source order is kept).", values: ref("recordType"))),
            ("queries", list(ref("query"), "The queries the app runs; lint checks their indexes.")),
            ("subscriptions", map("Subscriptions the app creates, by subscription ID (docs/runtime.md).", values: ref("subscription"))),
        ]
        return object("A YAML schema file: record types, fields, indexes, zones, grants and queries.", properties)
    }

    static var zone: JSONValue {
        object("A custom record zone.", [
            ("database", ref("database")),
            ("capabilities", ref("capabilities")),
        ])
    }

    static var recordType: JSONValue {
        let permission = enumeration(Permission.allCases.map(\.rawValue), "A permission.")
        let properties: [(String, JSONValue)] = [
            ("description", string("Free text.")),
            ("zone", string("A zone declared under zones, or _defaultZone.")),
            ("database", ref("database")),
            ("deprecated", bool("true retires the type: production keeps it, lint warns where it is used.")),
            ("requires", ref("capabilities")),
            ("system", object("Indexes on system fields.", SystemField.allCases.map { ($0.rawValue, ref("indexes")) })),
            ("fields", map("Fields by name (order kept): a type alone, or a mapping.", values: ref("field"))),
            ("grants", map("Permissions per role.", values: list(permission, "read, create, write"))),
        ]
        return object("A record type.", properties)
    }

    static var field: JSONValue {
        let properties: [(String, JSONValue)] = [
            ("type", ref("fieldType")),
            ("encrypted", bool("true: stored in encryptedValues (no index; not for references, assets or public-database types).")),
            ("indexes", ref("indexes")),
            ("deprecated", bool("true retires the field (production can never delete it).")),
            ("to", string("For references: the record type pointed to.")),
            ("action", enumeration(ReferenceAction.allCases.map(\.rawValue), "For references: what deleting the target does.")),
            ("description", string("Free text.")),
            ("onDemand", bool("true: CloudKit creates the field only when a record first needs it (a Core Data _ckAsset companion, CD_moveReceipt); its absence on either side is not a difference.")),
        ]
        return .object([
            ("description", .string("A field: its type alone (cover: asset), or a mapping.")),
            ("anyOf", .array([ref("fieldType"), object("A field.", properties, required: ["type"])])),
        ])
    }

    /// Every spelling the decoder reads canonically: `string`, `list<string>`, `number<int64>`, ...
    static var fieldType: JSONValue {
        var names: [String] = []
        for p in PrimitiveType.allCases { names.append(p.rawValue) }
        names += ["number<int64>", "number<double>"]
        names += names.map { "list<\($0)>" }
        return enumeration(names, "A CloudKit field type, or list<T> of one; number is CKDB's legacy type (read and flagged, CK120).")
    }

    static var indexes: JSONValue {
        list(enumeration(IndexKind.allCases.map(\.rawValue), "An index kind."), "Index kinds: queryable, searchable (strings and lists of strings), sortable.")
    }

    static var query: JSONValue {
        let names = list(string("A field name (custom or system)."), "")
        let properties: [(String, JSONValue)] = [
            ("name", string("A name for messages.")),
            ("recordType", string("The record type queried.")),
            ("filter", names.withDescription("Fields the predicate compares: each must be queryable.")),
            ("search", names.withDescription("Fields matched by full-text tokens: each must be searchable.")),
            ("sort", names.withDescription("Fields of the sort descriptors: each must be sortable.")),
            ("database", ref("database")),
            ("predicate", string("CloudKit's NSPredicate subset (docs/runtime.md): every field it filters on must be queryable.")),
        ]
        return object("A query the app runs.", properties, required: ["recordType"])
    }

    /// A subscription: each kind takes only its own keys (`Subscription.keys(for:)`).
    static var subscription: JSONValue {
        let describe: [String: JSONValue] = [
            "database": ref("database"),
            "recordType": string("The record type watched."),
            "predicate": string("CloudKit's NSPredicate subset; every field it filters on must be queryable."),
            "firesOn": list(enumeration(Subscription.Event.allCases.map(\.rawValue), "An event."), "The events that fire it: create, update, delete."),
            "desiredKeys": list(string("A field the notification carries."), "CKSubscription.NotificationInfo.desiredKeys."),
            "zone": string("The zone watched (a custom zone with fetchChanges)."),
        ]
        let kinds: [JSONValue] = Subscription.Kind.allCases.map { kind in
            let keys = Subscription.keys(for: kind).filter { $0 != "type" }
            let properties = [("type", JSONValue.object([("const", .string(kind.rawValue))]))] + keys.map { ($0, describe[$0] ?? string($0)) }
            return object("A \(kind.rawValue) subscription.", properties, required: ["type", "database"])
        }
        return .object([("description", .string("A subscription: query, zone or database.")), ("oneOf", .array(kinds))])
    }

    static var configFile: JSONValue {
        let severity = enumeration(Severity.allCases.map(\.rawValue), "A severity.")
        let code = JSONValue.object([("type", .string("string")), ("description", .string("A rule code (docs/rules.md).")), ("pattern", .string("^CK[0-9]{3}$"))])
        let record = JSONValue.anyOf([
            string("A record file, validated against production."),
            object("A record file and its environment.", [
                ("path", string("The record file (NDJSON, JSON or YAML).")),
                ("env", enumeration(Environment.allCases.map(\.rawValue), "The environment it is headed for (default: production).")),
            ], required: ["path"]),
        ])
        let properties: [(String, JSONValue)] = [
            ("ckschema", ref("version")),
            ("schemas", object("The development and production schema sources (a YAML file, a folder, or a .ckdb file).", [
                ("development", string("The development schema source.")),
                ("production", string("The production schema source (Schemas/production.ckdb: what 'ckschema pull' writes).")),
            ])),
            ("migrations", string("The migrations folder (default: Migrations).")),
            ("store", string("The local store (default: .ckschema/store.sqlite).")),
            ("records", list(record, "Record files 'check' validates.")),
            ("lint", object("How lint and check behave.", [
                ("disable", list(code, "Rules switched off for the repository.")),
                ("severity", .object([("type", .string("object")), ("description", .string("Severity overrides by rule code.")),
                                      ("propertyNames", code), ("additionalProperties", severity)])),
                ("failOn", severity),
            ])),
            ("promote", object("The production rules' classes, configured like lint's (note: safe, warning: review, error: forbidden).", [
                ("disable", list(code, "Production rules whose changes are safe for this repository (still deployed, not reviewed).")),
                ("severity", .object([("type", .string("object")), ("description", .string("Severity overrides by rule code: a severity is the class that reports with it.")),
                                      ("propertyNames", code), ("additionalProperties", severity)])),
            ])),
            ("check", list(enumeration(Configuration.checkNames, "A check."), "The checks 'ckschema check' runs (default: every configured one).")),
            ("container", ref("container")),
            ("team", string("The Apple developer team identifier, for 'ckschema pull', 'push', 'reset' and 'verify'.")),
            ("teamId", string("The same as 'team' (cktool's word, --team-id).")),
            ("code", list(string("A folder or Swift file of the app."), "The app's Swift sources: 'ckschema check' scans their CloudKit calls against production (docs/scan.md).")),
            ("sharing", bool("true: the app shares records (CKShare), so 'promote --check' and 'check' require cloudkit.share (and, for a Core Data or SwiftData model, CD_moveReceipt on every CD_ type) in production; false: it does not, whatever the code shows; absent: the scan of 'code' decides (docs/promotion.md).")),
            ("coreData", object("When a schema source is a Core Data model (docs/coredata.md): which version and configuration to read.", [
                ("modelVersion", string("The model version (default: the one .xccurrentversion names).")),
                ("configuration", string("The configuration mirrored to CloudKit (default: the one marked Used with CloudKit, else every entity).")),
            ])),
            ("swiftData", object("When a schema source is SwiftData sources (docs/swiftdata.md): which @Model classes sync.", [
                ("models", list(string("A @Model class, by name (Trip) or qualified (SchemaV2.Trip)."), "The @Model classes that sync with CloudKit (default: the VersionedSchema's list, else every @Model class).")),
            ])),
        ]
        return object("ckschema.yaml: where the repository keeps its schemas, migrations, store and record fixtures.", properties, required: ["ckschema"])
    }
}

extension JSONValue {
    static func anyOf(_ options: [JSONValue]) -> JSONValue { .object([("anyOf", .array(options))]) }

    /// The same object with its `description` replaced.
    func withDescription(_ text: String) -> JSONValue {
        guard case .object(var pairs) = self else { return self }
        if let i = pairs.firstIndex(where: { $0.0 == "description" }) { pairs[i].1 = .string(text) } else { pairs.append(("description", .string(text))) }
        return .object(pairs)
    }
}

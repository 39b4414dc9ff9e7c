import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaRecords
import CKSchemaStore
import CKSchemaWire

/// Reads one `records import` line into a record, from the token tape `validate`'s checker
/// already produced for it (`TokenReader`), checking it against the schema (CK55x).
///
/// Fields under `encryptedValues`, with an `ENCRYPTED_` type or `"isEncrypted": true` are
/// encrypted; a new field (development) keeps that encryption, and is added to the schema
/// by the caller only when the whole record reads.
struct IncomingReader {
    typealias Incoming = RecordImporter.Incoming

    /// Why a record is refused: the rule, the field and the words.
    private struct Refusal: Error {
        var rule: RuleInfo
        var field: String?
        var message: String
        var fix: String?

        init(_ rule: RuleInfo, field: String? = nil, _ message: String, fix: String? = nil) {
            self.rule = rule
            self.field = field
            self.message = message
            self.fix = fix
        }

        /// A string the tape accepted but whose escape does not decode.
        init(_ e: JSONValue.ParseError) {
            self.init(StoreRules.recordMalformed, "line is not JSON: \(e.message) at byte \(e.offset + 1)")
        }
    }

    private let reader: TokenReader
    private let schema: Schema
    private let env: Environment
    private let inferred: [String: InferredObservation]
    private var rec: Incoming
    private var additions: [Field] = []
    private var additionIndex: [String: Int] = [:]

    /// The record on one line and the fields development would add for it (empty on failure,
    /// when `error` is set). `reader` is nil when the line is not JSON (`syntaxError` says why).
    static func read(_ reader: TokenReader?, syntaxError: JSONSyntaxError?, bytes: UnsafeRawBufferPointer, line: Int, number: Int, file: String,
                     schema: Schema, env: Environment, inferred: [String: InferredObservation]) -> (Incoming, [Field]) {
        let rec = Incoming(line: line, number: number, file: file, name: "", type: "", zone: Zone.defaultZoneName, changeTag: nil, fields: [])
        guard let reader else {
            var failed = rec
            failed.zone = zone(ofMalformed: bytes) ?? failed.zone
            let why = syntaxError.map { "\($0.message) at byte \($0.offset + 1)" } ?? "empty record"
            failed.error = Diagnostic(rule: StoreRules.recordMalformed, ValidationRun.compose(number: number, nil, nil, "line is not JSON: \(why)"),
                                  at: SourceLocation(file: file, line: line, column: 1))
            return (failed, [])
        }
        var r = IncomingReader(reader: reader, schema: schema, env: env, inferred: inferred, rec: rec)
        do throws(Refusal) {
            try r.readRecord()
            return (r.rec, r.additions)
        } catch {
            var failed = r.rec
            failed.error = .error(error.rule, ValidationRun.compose(number: number, r.rec.name.isEmpty ? nil : r.rec.name, error.field, error.message),
                                  at: SourceLocation(file: file, line: line, column: 1), fix: error.fix)
            return (failed, [])
        }
    }

    /// The zone of a line `validate`'s stricter grammar refuses (a leading zero, deep
    /// nesting) but that is still JSON: it fails its zone's batch if the zone is atomic, as
    /// it did when the importer parsed every line itself. Read on this error path only.
    private static func zone(ofMalformed bytes: UnsafeRawBufferPointer) -> String? {
        guard let json = try? JSONValue.parse(bytes), let name = json["recordName"]?.stringValue, !name.isEmpty,
              json["recordType"]?.stringValue != nil else { return nil }
        return json["zoneID"]?["zoneName"]?.stringValue
    }

    private init(reader: TokenReader, schema: Schema, env: Environment, inferred: [String: InferredObservation], rec: Incoming) {
        self.reader = reader
        self.schema = schema
        self.env = env
        self.inferred = inferred
        self.rec = rec
    }

    /// The record's name, type and zone, then its fields.
    private mutating func readRecord() throws(Refusal) {
        if let e = reader.firstEscapeError() { throw Refusal(e) }
        guard reader.tokens[0].kind == .object else {
            throw Refusal(StoreRules.recordMalformed, "a record is a JSON object (found \(reader.kindName(0)))")
        }
        let tIndex = try readIdentity()
        let fields = try objectMembers("fields")
        let encryptedValues = try objectMembers("encryptedValues")
        rec.fields.reserveCapacity(fields.count + encryptedValues.count)
        for (key, wrapper) in fields { try readField(key, wrapper, encryptedForm: false, typeIndex: tIndex) }
        for (key, wrapper) in encryptedValues { try readField(key, wrapper, encryptedForm: true, typeIndex: tIndex) }
    }

    /// Reads recordName, recordType, zoneID and recordChangeTag; returns the type's index in
    /// the schema. The type and the zone must be in the schema.
    private mutating func readIdentity() throws(Refusal) -> Int {
        guard let name = try string(member(0, "recordName")), !name.isEmpty else {
            throw Refusal(StoreRules.recordMalformed, "the record has no `recordName`")
        }
        rec.name = name
        guard let type = try string(member(0, "recordType")) else { throw Refusal(StoreRules.recordMalformed, "the record has no `recordType`") }
        rec.type = type
        if let z = try member(0, "zoneID") {
            guard let zn = try string(member(z, "zoneName")) else { throw Refusal(StoreRules.recordMalformed, "`zoneID` needs `zoneName`") }
            rec.zone = zn
        }
        rec.changeTag = try string(member(0, "recordChangeTag"))
        guard let tIndex = schema.recordTypes.firstIndex(where: { $0.name == type }) else {
            throw Refusal(StoreRules.recordUnknownType, "type '\(type)' is not in the \(env.rawValue) schema\(Suggest.phrase(for: type, in: schema.recordTypes.map(\.name)))",
                          fix: "add the record type with a migration first")
        }
        if rec.zone != Zone.defaultZoneName, schema.zone(named: rec.zone) == nil {
            throw Refusal(StoreRules.recordUnknownZone, "zone '\(rec.zone)' is not in the \(env.rawValue) schema", fix: "add the zone with a migration first")
        }
        return tIndex
    }

    /// The members of the record's `key` object (`fields`, `encryptedValues`); none when absent.
    private func objectMembers(_ key: String) throws(Refusal) -> [(key: String, value: Int)] {
        guard let t = try member(0, key) else { return [] }
        guard reader.tokens[t].kind == .object else { throw Refusal(StoreRules.recordMalformed, "`\(key)` is an object") }
        do throws(JSONValue.ParseError) { return try reader.members(t) } catch { throw Refusal(error) }
    }

    /// One field: its Web Services shape, the schema's field (or the one development adds),
    /// encryption and declared type, then its value converted for the store.
    private mutating func readField(_ key: String, _ wrapper: Int, encryptedForm: Bool, typeIndex: Int) throws(Refusal) {
        let (value, tag, encrypted) = try unwrap(key, wrapper, encryptedForm: encryptedForm)
        // An empty list (EMPTY_LIST) names no element type: it declares nothing a new field could take.
        let declared = tag.flatMap { t in t.primitive.map { FieldType($0, isList: t.isList) } }
        let field = try schemaField(key, typeIndex: typeIndex, declared: declared, encrypted: encrypted)
        if field.isEncrypted != encrypted {
            throw Refusal(StoreRules.recordValueType, field: key,
                          field.isEncrypted ? "encrypted in the schema but written in plaintext form" : "not encrypted in the schema but written as encrypted")
        }
        // The same fit as validate's checker (TypeTag.fits), so both accept the same records.
        if let tag, !tag.fits(field.type) {
            throw Refusal(StoreRules.recordValueType, field: key, "\(field.type) in the schema, but the record says \(declared.map(FieldValue.webServicesType) ?? "EMPTY_LIST")")
        }
        // null is no value: validate allows it for every field, and nothing is stored.
        if reader.tokens[value].kind == .null { return }
        let json: JSONValue
        do throws(JSONValue.ParseError) { json = try reader.value(value) } catch { throw Refusal(error) }
        // A bare value (the plain shape) is its own wrapper: ISO timestamps and file paths are
        // read as validate reads them.
        switch FieldValue.storage(fromWebServices: json, type: field.type, plain: value == wrapper) {
        case .success(let v): rec.fields.append((key, v))
        case .failure(let m): throw Refusal(StoreRules.recordValueType, field: key, "(\(field.type)) \(m.message)")
        }
    }

    /// The Web Services shape `{value, type, isEncrypted}`, or a bare value: the value's
    /// token, the type it declares and whether it is written encrypted.
    private func unwrap(_ key: String, _ wrapper: Int, encryptedForm: Bool) throws(Refusal) -> (Int, TypeTag?, Bool) {
        guard reader.tokens[wrapper].kind == .object, let value = try member(wrapper, "value") else { return (wrapper, nil, encryptedForm) }
        var tag: TypeTag?
        var encrypted = encryptedForm
        if let t = try string(member(wrapper, "type")) {
            // The wire format's one table of type names (TypeTag), the one validate reads.
            guard let named = TypeTag.named(t) else { throw Refusal(StoreRules.recordValueType, field: key, "unknown type '\(ControlCharacters.escaped(t))'") }
            tag = named
            if named.isEncrypted { encrypted = true }
        }
        if let e = try member(wrapper, "isEncrypted"), reader.tokens[e].kind == .trueValue { encrypted = true }
        return (value, tag, encrypted)
    }

    /// The schema's field named `key`, or the one a record already added; in development a
    /// new field is added with the declared (or inferred) type. Production refuses it.
    private mutating func schemaField(_ key: String, typeIndex: Int, declared: FieldType?, encrypted: Bool) throws(Refusal) -> (type: FieldType, isEncrypted: Bool) {
        // The type is read in place, and only the field's type and encryption are taken (a
        // copy of a `RecordType` or a `Field` retains its strings, per field).
        if let i = schema.recordTypes[typeIndex].fields.firstIndex(where: { $0.name == key }) {
            return (schema.recordTypes[typeIndex].fields[i].type, schema.recordTypes[typeIndex].fields[i].isEncrypted)
        }
        if let i = additionIndex[key] { return (additions[i].type, additions[i].isEncrypted) }
        let type = schema.recordTypes[typeIndex]
        guard env == .development else {
            throw Refusal(StoreRules.recordUnknownField, field: key, "'\(type.name)' does not have it in production\(Suggest.phrase(for: key, in: type.fields.map(\.name)))",
                          fix: "deploy the field to production first (a migration, then promote), or remove it from the record")
        }
        guard let newType = declared ?? inferred[key]?.type else {
            throw Refusal(StoreRules.recordValueType, field: key, "a new field with no `type`, so development cannot add it to the schema")
        }
        let f = Field(name: key, type: newType, isEncrypted: encrypted || inferred[key]?.isEncrypted == true)
        // The checks need the type's name and database, not its other new fields.
        if let problem = CloudKitRules.fieldViolations(f, in: type, database: schema.database(of: type), notation: .yaml).first {
            throw Refusal(StoreRules.recordValueType, field: key, problem.message)
        }
        additionIndex[key] = additions.count
        additions.append(f)
        return (f.type, f.isEncrypted)
    }

    // MARK: Tokens

    private func member(_ obj: Int, _ key: String) throws(Refusal) -> Int? {
        do throws(JSONValue.ParseError) { return try reader.member(obj, key) } catch { throw Refusal(error) }
    }

    /// The string at `t` (nil for a missing member or another kind of value).
    private func string(_ t: Int?) throws(Refusal) -> String? {
        guard let t else { return nil }
        do throws(JSONValue.ParseError) { return try reader.stringValue(t) } catch { throw Refusal(error) }
    }
}

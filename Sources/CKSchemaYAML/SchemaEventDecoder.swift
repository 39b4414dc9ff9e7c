import CKSchemaDiagnostics
import CKSchemaModel

internal import CYAML
import Foundation

extension SchemaDecoder {
    /// A YAML schema file's model, the lines of its structural keys (empty when `keyLines` is
    /// false) and the lines of its multi-line scalars. Throws every problem as `SchemaDecoder`
    /// words it.
    ///
    /// Two paths, one meaning: `SchemaEventDecoder` decodes straight from libyaml's events,
    /// and takes only files in which it has nothing to report; anything else (an error, an
    /// anchor or alias, a duplicate key) is read again through `YAMLReader`'s tree and
    /// `decode(_:)`, which stay the one home of every diagnostic.
    package static func load(_ data: Data, file: String, keyLines: Bool = true) throws(InputError)
        -> (schema: Schema, keyLines: [String: Int], multilineScalarLines: [ClosedRange<Int>]) {
        if let fast = SchemaEventDecoder.decode(data, file: file, keyLines: keyLines) { return fast }
        let doc = try YAMLReader.parse(data, file: file)
        var decoder = SchemaDecoder(file: file)
        decoder.keepsKeyLines = keyLines
        let schema = decoder.decode(doc)
        if decoder.d.hasErrors { throw InputError(decoder.d.diagnostics) }
        return (schema, decoder.keyLines, doc.multilineScalarLines)
    }
}

/// The fast path of loading a schema file: the model decoded from a stream of YAML events,
/// with no node tree in between. Building the tree and then the model touched ~50 MB for
/// a 3.8 MB file and was most of the cost above libyaml's own (Benchmarks/RESULTS.md).
///
/// It accepts only what `SchemaDecoder` would decode without a diagnostic, and produces
/// what it would (model, origins, key lines): at the first thing it would have to report,
/// or that it does not handle itself (anchors, aliases, any irregular shape), it gives up,
/// and `SchemaDecoder.load` reads the file through the tree path. Giving up is always
/// safe; accepting is exact (keys are matched byte for byte, values go through the same
/// parsers). The less common top-level sections (`roles`, `zones`, `queries`,
/// `subscriptions`) are built as small trees and handed to `SchemaDecoder.section`.
/// `SchemaEventDecoderTests` holds both paths to the same results.
///
/// The events come first from `CanonicalScanner` (the subset `fmt` writes, several times
/// cheaper than libyaml); where it declines, the file is decoded again from libyaml's events
/// (`EventCursor`). Nothing of a declined attempt is kept.
enum SchemaEventDecoder {
    struct GiveUp: Error {}

    typealias Loaded = (schema: Schema, keyLines: [String: Int], multilineScalarLines: [ClosedRange<Int>])

    /// The decoded file, or nil when the tree path must read it.
    static func decode(_ data: Data, file: String, keyLines: Bool = true) -> Loaded? {
        guard TextBytes.firstInvalidUTF8(data) == nil else { return nil }
        return data.withUnsafeBytes { raw -> Loaded? in
            let canonical = CanonicalCursor(bytes: raw)
            var fast = Decoding(cursor: canonical, file: file, keyLines: keyLines)
            if let loaded = fast.run() { return loaded }
            // The decoder gave up on what the scanner read: the tree path has something to say.
            guard canonical.declined else { return nil }
            var general = Decoding(cursor: EventCursor(bytes: raw), file: file, keyLines: keyLines)
            return general.run()
        }
    }

    // MARK: Keys

    fileprivate enum TopKey: String { case ckschema, partial, container, roles, zones, recordTypes, queries, subscriptions }
    fileprivate enum RecordTypeKey: String { case description, zone, database, deprecated, requires, system, fields, grants }
    fileprivate enum FieldKey: String { case type, encrypted, indexes, deprecated, to, action, description, onDemand }

    /// A key table from `SchemaDecoder`'s list of keys, so the two cannot disagree on a name.
    private static func table<K: RawRepresentable>(_ names: [String], _: K.Type) -> [(bytes: [UInt8], key: K)] where K.RawValue == String {
        names.map { name in
            guard let key = K(rawValue: name) else { preconditionFailure("SchemaEventDecoder does not know the key '\(name)'") }
            return (Array(name.utf8), key)
        }
    }

    fileprivate static let topKeys = table(SchemaDecoder.topKeys, TopKey.self)
    fileprivate static let recordTypeKeys = table(SchemaDecoder.recordTypeKeys, RecordTypeKey.self)
    fileprivate static let fieldKeys = table(SchemaDecoder.fieldKeys, FieldKey.self)
    fileprivate static let systemFields = table(SystemField.allCases.map(\.rawValue), SystemField.self)
    fileprivate static let indexKinds = table(IndexKind.allCases.map(\.rawValue), IndexKind.self)
    /// `FieldType`'s canonical spellings, the shortest (the plain types) first.
    fileprivate static let fieldTypes: [(bytes: [UInt8], key: FieldType)] =
        FieldType.spellings.sorted { ($0.key.utf8.count, $0.key) < ($1.key.utf8.count, $1.key) }.map { (Array($0.key.utf8), $0.value) }

    /// True when two of `names` are equal: a duplicate key, which the tree path reports.
    /// Found by sorting a copy (hashing every field name into a set cost three times more).
    fileprivate static func hasDuplicate(_ names: [String]) -> Bool {
        if names.count <= 8 {
            for i in names.indices { for j in names.indices where j > i && names[i] == names[j] { return true } }
            return false
        }
        let sorted = names.sorted()
        for i in 1..<sorted.count where sorted[i] == sorted[i - 1] { return true }
        return false
    }
}

/// One decoding of a file from one source of events.
private struct Decoding<Cursor: YAMLEventSource> {
    typealias GiveUp = SchemaEventDecoder.GiveUp
    private typealias Tables = SchemaEventDecoder

    private let cursor: Cursor
    private var base: SchemaDecoder
    private let file: String
    /// How many fields the last record type had: the next one's array is made that large,
    /// so that it rarely grows (types of one schema tend to be alike).
    private var lastFieldCount = 0

    init(cursor: Cursor, file: String, keyLines: Bool) {
        self.cursor = cursor
        self.file = file
        base = SchemaDecoder(file: file)
        base.keepsKeyLines = keyLines
    }

    /// The decoded file, or nil at the first thing this path does not take.
    mutating func run() -> SchemaEventDecoder.Loaded? {
        do throws(GiveUp) {
            let schema = try document()
            return (schema, base.keyLines, cursor.multiline)
        } catch {
            return nil
        }
    }

    /// The current scalar as a field type: a canonical spelling matched by its bytes, else
    /// whatever `FieldType(parsing:)` makes of it.
    private func fieldType() -> FieldType? {
        if let i = cursor.match(Tables.fieldTypes) { return Tables.fieldTypes[i].key }
        return FieldType(parsing: cursor.text)
    }

    /// The current event as one of `table`'s keys, not seen before in its mapping.
    private func key<K>(_ table: [(bytes: [UInt8], key: K)], seen: inout UInt32) throws(GiveUp) -> K {
        guard cursor.kind == .scalar, let i = cursor.match(table), seen & (1 << i) == 0 else { throw GiveUp() }
        seen |= 1 << i
        return table[i].key
    }

    // MARK: The schema

    private mutating func document() throws(GiveUp) -> Schema {
        // An empty file, or one that is not a mapping: the tree path says so.
        try cursor.expect(.streamStart)
        try cursor.expect(.documentStart)
        try cursor.expect(.mappingStart)
        var schema = Schema(origin: Origin(file: file, line: 1, column: 1))
        var seen: UInt32 = 0
        while try cursor.advance() != .end {
            let key = try key(Tables.topKeys, seen: &seen)
            base.noteKeyLine(key.rawValue, cursor.line)
            switch key {
            case .ckschema:
                guard try cursor.advance() == .scalar, cursor.isPlain, Int(cursor.text) == Schema.formatVersion else { throw GiveUp() }
            case .container:
                schema.container = try string()
            case .recordTypes:
                try recordTypes(into: &schema)
            case .partial, .roles, .zones, .queries, .subscriptions:
                _ = try cursor.advance()
                base.section(key.rawValue, try cursor.subtree(file: file, enclosingDepth: 1), into: &schema)
                if !base.d.diagnostics.isEmpty { throw GiveUp() }
            }
        }
        try cursor.expect(.documentEnd)
        // A second document: the tree path says so.
        try cursor.expect(.streamEnd)
        return schema
    }

    private mutating func recordTypes(into schema: inout Schema) throws(GiveUp) {
        try cursor.expect(.mappingStart)
        while try cursor.advance() != .end {
            let name = try cursor.name()
            let origin = cursor.origin(file)
            switch try cursor.advance() {
            case .scalar where cursor.isNull: schema.recordTypes.append(RecordType(name: name, origin: origin))
            case .mappingStart: schema.recordTypes.append(try recordType(name, at: origin))
            default: throw GiveUp()
            }
        }
        if Tables.hasDuplicate(schema.recordTypes.map(\.name)) { throw GiveUp() }
    }

    private mutating func recordType(_ name: String, at origin: Origin) throws(GiveUp) -> RecordType {
        var rt = RecordType(name: name, origin: origin)
        var seen: UInt32 = 0
        while try cursor.advance() != .end {
            let key = try key(Tables.recordTypeKeys, seen: &seen)
            base.noteKeyLine("recordTypes.\(name).\(key.rawValue)", cursor.line)
            switch key {
            case .description: rt.description = try string()
            case .zone: rt.zone = try string()
            case .database: rt.database = try enumValue(Database.self)
            case .deprecated: rt.isDeprecated = try bool()
            case .requires: rt.requiredCapabilities = try enumSet(ZoneCapability.self)
            case .system: try systemIndexes(of: &rt)
            case .fields: try fields(of: &rt)
            case .grants: try grants(of: &rt)
            }
        }
        return rt
    }

    private mutating func systemIndexes(of rt: inout RecordType) throws(GiveUp) {
        try cursor.expect(.mappingStart)
        var seen: UInt32 = 0
        while try cursor.advance() != .end {
            let field = try key(Tables.systemFields, seen: &seen)
            let origin = cursor.origin(file)
            base.noteKeyLine("recordTypes.\(rt.name).system.\(field.rawValue)", cursor.line)
            let set = try indexes().set
            if !set.isEmpty {
                rt.systemIndexes[field] = set
                rt.systemIndexOrigins.table[field] = origin
            }
        }
    }

    private mutating func fields(of rt: inout RecordType) throws(GiveUp) {
        try cursor.expect(.mappingStart)
        var fields: [Field] = []
        fields.reserveCapacity(lastFieldCount)
        while try cursor.advance() != .end {
            let name = try cursor.name()
            fields.append(try field(name, at: cursor.origin(file)))
        }
        if Tables.hasDuplicate(fields.map(\.name)) { throw GiveUp() }
        lastFieldCount = fields.count
        rt.fields = fields
    }

    /// A field from its shorthand (`cover: asset`) or its mapping (`{ type: string, ... }`).
    private mutating func field(_ name: String, at origin: Origin) throws(GiveUp) -> Field {
        switch try cursor.advance() {
        case .scalar:
            guard !cursor.isNull, let type = fieldType() else { throw GiveUp() }
            var field = Field(name: name, type: type, origin: origin)
            field.placeType(line: cursor.line, column: cursor.column)
            return field
        case .mappingStart:
            var field = Field(name: name, type: FieldType(.string), origin: origin)
            var seen: UInt32 = 0
            var typed = false
            while try cursor.advance() != .end {
                switch try key(Tables.fieldKeys, seen: &seen) {
                case .type:
                    guard try cursor.advance() == .scalar, !cursor.isNull, let type = fieldType() else { throw GiveUp() }
                    field.type = type
                    field.placeType(line: cursor.line, column: cursor.column)
                    typed = true
                case .encrypted: field.isEncrypted = try bool()
                case .indexes:
                    let (set, place) = try indexes()
                    field.indexes = set
                    if let place { field.placeIndexes(line: place.line, column: place.column, width: place.width) }
                case .deprecated: field.isDeprecated = try bool()
                case .to:
                    field.referenceTarget = try string()
                    field.placeReferenceTarget(line: cursor.line, column: cursor.column)
                case .action: field.referenceAction = try enumValue(ReferenceAction.self)
                case .description: field.description = try string()
                case .onDemand: field.mayBeAbsent = try bool()
                }
            }
            guard typed else { throw GiveUp() }
            return field
        default:
            throw GiveUp()
        }
    }

    private mutating func grants(of rt: inout RecordType) throws(GiveUp) {
        try cursor.expect(.mappingStart)
        while try cursor.advance() != .end {
            let role = try cursor.name()
            let origin = cursor.origin(file)
            rt.grants.append(Grant(role: role, permissions: try enumSet(Permission.self), origin: origin))
        }
        if Tables.hasDuplicate(rt.grants.map(\.role)) { throw GiveUp() }
    }

    // MARK: Values

    /// A non-empty scalar (`NodeDecoder.string`).
    private func string() throws(GiveUp) -> String {
        guard try cursor.advance() == .scalar, !cursor.isNull else { throw GiveUp() }
        return cursor.text
    }

    /// A plain true or false (`NodeDecoder.bool`).
    private func bool() throws(GiveUp) -> Bool {
        guard try cursor.advance() == .scalar, cursor.isPlain else { throw GiveUp() }
        if cursor.equals("true") || cursor.equals("True") || cursor.equals("TRUE") { return true }
        if cursor.equals("false") || cursor.equals("False") || cursor.equals("FALSE") { return false }
        throw GiveUp()
    }

    private func enumValue<E: RawRepresentable>(_: E.Type) throws(GiveUp) -> E where E.RawValue == String {
        guard let v = E(rawValue: try string()) else { throw GiveUp() }
        return v
    }

    /// A list of enum values, a single value, or nothing (`NodeDecoder.enumSet`).
    private func enumSet<E: RawRepresentable & Hashable>(_: E.Type) throws(GiveUp) -> Set<E> where E.RawValue == String {
        // Room for a few values from the start: grown one insert at a time, a grant's
        // permissions cost a resize each.
        var out = Set<E>(minimumCapacity: 4)
        switch try cursor.advance() {
        case .sequenceStart:
            while try cursor.advance() != .end {
                guard cursor.kind == .scalar, !cursor.isNull, let v = E(rawValue: cursor.text) else { throw GiveUp() }
                out.insert(v)
            }
        case .scalar:
            if cursor.isNull { return out }
            guard let v = E(rawValue: cursor.text) else { throw GiveUp() }
            out.insert(v)
        default:
            throw GiveUp()
        }
        return out
    }

    /// A list of index kinds, a single one, or nothing (`SchemaDecoder.indexes`), with the
    /// value's place as `SchemaDecoder.indexesPlace` gives it.
    private func indexes() throws(GiveUp) -> (set: IndexKinds, place: (line: Int, column: Int, width: Int?)?) {
        var set = IndexKinds()
        switch try cursor.advance() {
        case .sequenceStart:
            let line = cursor.line, column = cursor.column, flow = cursor.isFlow
            while try cursor.advance() != .end {
                guard cursor.kind == .scalar, let i = cursor.match(Tables.indexKinds) else { throw GiveUp() }
                set.insert(Tables.indexKinds[i].key)
            }
            let width = flow && cursor.endLine == line ? cursor.endColumn - column : -1
            return (set, SchemaDecoder.indexesPlace(line: line, column: column, width: width, isEmptyScalar: false))
        case .scalar:
            let place = SchemaDecoder.indexesPlace(line: cursor.line, column: cursor.column, width: cursor.width,
                                                   isEmptyScalar: cursor.isPlain && cursor.equals(""))
            if cursor.isNull { return (set, place) }
            guard let i = cursor.match(Tables.indexKinds) else { throw GiveUp() }
            set.insert(Tables.indexKinds[i].key)
            return (set, place)
        default:
            throw GiveUp()
        }
    }
}

/// Where `SchemaEventDecoder` reads events from: libyaml (`EventCursor`) or the canonical
/// scanner (`CanonicalCursor`). A class, so that the decoder's non-mutating helpers can move
/// it on; generic use (not an existential) keeps every call direct.
protocol YAMLEventSource: AnyObject {
    typealias Kind = YAMLEventKind
    /// Moves to the next event and returns its kind; throws where this source stops.
    @discardableResult func advance() throws(SchemaEventDecoder.GiveUp) -> Kind
    var kind: Kind { get }
    /// 1-based line and column of the current event's first character.
    var line: Int { get }
    var column: Int { get }
    /// Where the current event ends: 1-based line, and the column just past its last character.
    var endLine: Int { get }
    var endColumn: Int { get }
    /// The current collection starts in flow style (`[a, b]`, `{ a: b }`).
    var isFlow: Bool { get }
    /// The current scalar's style and bytes.
    var style: YAMLNode.ScalarStyle { get }
    var bytes: UnsafeBufferPointer<UInt8> { get }
    /// Lines of multi-line scalars so far, which the comment scanner skips.
    var multiline: [ClosedRange<Int>] { get }
}

package enum YAMLEventKind: Equatable, Sendable { case streamStart, streamEnd, documentStart, documentEnd, scalar, sequenceStart, mappingStart, end }

extension YAMLEventSource {
    /// Moves to the next event, which must be of `expected` kind.
    func expect(_ expected: Kind) throws(SchemaEventDecoder.GiveUp) {
        guard try advance() == expected else { throw .init() }
    }

    /// The current scalar's width on its line, quotes included; -1 when it spans lines.
    var width: Int { endLine == line ? endColumn - column : -1 }
    func origin(_ file: String) -> Origin { Origin(file: file, line: line, column: column) }

    /// The current scalar's text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    var isPlain: Bool { style == .plain }

    /// A plain `~`, `null` or empty scalar: YAML's null (`YAMLNode.isNull`).
    var isNull: Bool {
        isPlain && (bytes.isEmpty || equals("~") || equals("null") || equals("Null") || equals("NULL"))
    }

    /// True when the current scalar's bytes are `word`'s.
    func equals(_ word: StaticString) -> Bool {
        let b = bytes
        guard b.count == word.utf8CodeUnitCount else { return false }
        return b.isEmpty || memcmp(b.baseAddress!, word.utf8Start, b.count) == 0
    }

    /// The current scalar's text as a key (a key that is not a scalar: the tree path says so).
    func name() throws(SchemaEventDecoder.GiveUp) -> String {
        guard kind == .scalar else { throw .init() }
        return text
    }

    /// The index of the entry of `table` whose bytes are the current scalar's.
    func match<K>(_ table: [(bytes: [UInt8], key: K)]) -> Int? {
        let b = bytes
        for (i, entry) in table.enumerated() where entry.bytes.count == b.count {
            if b.isEmpty || entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, b.baseAddress!, b.count) == 0 }) { return i }
        }
        return nil
    }

    /// The current value and everything in it as a tree of its own (for
    /// `SchemaDecoder.section`). `enclosingDepth` collections are open around it.
    func subtree(file: String, enclosingDepth: Int) throws(SchemaEventDecoder.GiveUp) -> YAMLNode {
        var builder = TreeBuilder(file: file)
        builder.enclosingDepth = enclosingDepth
        var depth = 0
        while true {
            do throws(InputError) {
                switch kind {
                case .scalar:
                    try builder.scalar(text, style: style, anchor: nil, line: line, column: column, width: width)
                case .mappingStart, .sequenceStart:
                    depth += 1
                    try builder.open(mapping: kind == .mappingStart, anchor: nil, line: line, column: column, flow: isFlow)
                case .end:
                    depth -= 1
                    try builder.close(endLine: endLine, endColumn: endColumn)
                default:
                    throw InputError([])
                }
            } catch {
                throw .init()
            }
            if depth == 0 { break }
            try advance()
        }
        guard let node = builder.finish() else { throw .init() }
        return node
    }
}

/// libyaml's events one at a time, for `SchemaEventDecoder`. Owns the parser and the
/// current event, and frees both. Gives up at a parse error, an anchor or an alias: the
/// tree path words the error, and expands aliases within `YAMLReader`'s bounds.
final class EventCursor: YAMLEventSource {
    /// The current event and what it is. Kept behind a pointer, not in stored properties:
    /// each access to a class's stored `var` is checked for exclusivity at run time, which
    /// cost a tenth of loading a large schema.
    private struct State {
        var event = yaml_event_t()
        var live = false
        var kind = Kind.streamEnd
    }

    private let parser: EventParser
    private let state: UnsafeMutablePointer<State>
    private(set) var multiline: [ClosedRange<Int>] = []

    /// `bytes` must stay valid for the cursor's life (the caller scopes both).
    init(bytes: UnsafeRawBufferPointer) {
        parser = EventParser(bytes: bytes)
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        if state.pointee.live { yaml_event_delete(&state.pointee.event) }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    private var event: yaml_event_t { state.pointee.event }
    var kind: Kind { state.pointee.kind }

    @discardableResult
    func advance() throws(SchemaEventDecoder.GiveUp) -> Kind {
        if state.pointee.live { yaml_event_delete(&state.pointee.event) }
        state.pointee.live = parser.pull(&state.pointee.event)
        guard state.pointee.live else { throw .init() }
        let kind: Kind
        switch event.type {
        case YAML_SCALAR_EVENT:
            guard event.data.scalar.anchor == nil else { throw .init() }
            let endLine = Int(event.end_mark.line) + 1
            if endLine > line { multiline.append(line...endLine) }
            kind = .scalar
        case YAML_MAPPING_START_EVENT:
            guard event.data.mapping_start.anchor == nil else { throw .init() }
            kind = .mappingStart
        case YAML_SEQUENCE_START_EVENT:
            guard event.data.sequence_start.anchor == nil else { throw .init() }
            kind = .sequenceStart
        case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT: kind = .end
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        default: throw .init()  // an alias
        }
        state.pointee.kind = kind
        return kind
    }

    var line: Int { Int(event.start_mark.line) + 1 }
    var column: Int { Int(event.start_mark.column) + 1 }
    var endLine: Int { Int(event.end_mark.line) + 1 }
    var endColumn: Int { Int(event.end_mark.column) + 1 }
    var isFlow: Bool {
        switch kind {
        case .sequenceStart: event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
        case .mappingStart: event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
        default: false
        }
    }
    var style: YAMLNode.ScalarStyle { kind == .scalar ? EventParser.style(event.data.scalar.style) : .plain }
    var bytes: UnsafeBufferPointer<UInt8> {
        guard kind == .scalar else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: event.data.scalar.value, count: Int(event.data.scalar.length))
    }
}

/// `CanonicalScanner`'s events one at a time, for `SchemaEventDecoder`. When the scanner
/// declines, `declined` says so and `advance` throws: the caller reads the file again
/// through libyaml.
final class CanonicalCursor: YAMLEventSource {
    private struct State {
        var scanner: CanonicalScanner
        var event = CanonicalScanner.Event(kind: .streamEnd)
        var declined = false
    }

    /// Behind a pointer for the reason `EventCursor` gives.
    private let state: UnsafeMutablePointer<State>

    /// `bytes` must stay valid for the cursor's life and be valid UTF-8.
    init(bytes: UnsafeRawBufferPointer) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(scanner: CanonicalScanner(bytes)))
    }

    deinit {
        state.pointee.scanner.free()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var declined: Bool { state.pointee.declined }
    var kind: Kind { state.pointee.event.kind }

    @discardableResult
    func advance() throws(SchemaEventDecoder.GiveUp) -> Kind {
        do throws(CanonicalScanner.Decline) {
            state.pointee.event = try state.pointee.scanner.advance()
        } catch {
            state.pointee.declined = true
            throw .init()
        }
        return state.pointee.event.kind
    }

    var line: Int { state.pointee.event.line + 1 }
    var column: Int { state.pointee.event.column + 1 }
    var endLine: Int { state.pointee.event.endLine + 1 }
    var endColumn: Int { state.pointee.event.endColumn + 1 }
    var isFlow: Bool { state.pointee.event.isFlow }
    var style: YAMLNode.ScalarStyle { state.pointee.event.style }
    var bytes: UnsafeBufferPointer<UInt8> { state.pointee.scanner.bytes(of: state.pointee.event) }
    /// The scanner takes no multi-line scalar.
    var multiline: [ClosedRange<Int>] { [] }
}

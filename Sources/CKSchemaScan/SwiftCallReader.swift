import Foundation
import CKSchemaModel
import CKSchemaSwift

/// What a name or an expression in the app's code stands for, as far as the scan can follow it.
enum ScanValue: Hashable {
    case string(String)
    /// A zone ID: `_defaultZone` for `CKRecordZone.default()`, `.ID.default`; nil name when unknown.
    case zone(String?)
    /// A `CKRecord.ID`: its zone (nil when unknown).
    case recordID(zone: String?)
    /// A `CKRecord(recordType:)`, `CKQuery(...)`, `CKQuerySubscription(...)`, a notification
    /// info: the token index of the call that made it, in its file.
    case record(Int), query(Int), subscription(Int), notificationInfo(Int)
    /// Boxed: a predicate is the one large value, and a `ScanValue` small enough to be held
    /// in place (`ScanValues`) is copied cheaply.
    indirect case predicate(ScanPredicate)
    case database(Database)
    case sort(String)
}

/// The values an expression can have (`SwiftCallReader.values`): most have one, held in
/// place, so that a lookup makes no array (the small arrays made and freed per lookup were
/// a tenth of a dense scan); two or more are an array.
struct ScanValues: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral {
    /// The value when there is exactly one (then `many` is empty).
    private var single: ScanValue?
    /// The values when there are none or two or more.
    private var many: [ScanValue] = []

    init() {}
    init(_ value: ScanValue) { single = value }
    init(_ values: [ScanValue]) {
        if values.count == 1 { single = values[0] } else { many = values }
    }
    init(arrayLiteral elements: ScanValue...) { self.init(elements) }

    var startIndex: Int { 0 }
    var endIndex: Int { single == nil ? many.count : 1 }
    var count: Int { single == nil ? many.count : 1 }
    var isEmpty: Bool { single == nil && many.isEmpty }

    subscript(position: Int) -> ScanValue { single ?? many[position] }

    mutating func append(_ value: ScanValue) {
        if let one = single {
            single = nil
            many = [one, value]
        } else if many.isEmpty {
            single = value
        } else {
            many.append(value)
        }
    }

    /// The values as an array (for a test).
    var array: [ScanValue] { single.map { [$0] } ?? many }
}

/// A predicate from `NSPredicate(value: true)` or `NSPredicate(format:...)`, with its
/// `%K`/`%@` arguments put in (an unresolved `%@` stands as a string and its type is not checked).
struct ScanPredicate: Hashable {
    var text: String
    /// Where the format string's first character is; nil when arguments were put in.
    var start: SourceLocation?
    var untypedValues: Bool
}

/// The words the scan's loops test at every token: each token is classified once, by its
/// bytes, rather than compared with each word in turn.
enum ScanWord: UInt8 {
    case other, funcWord, initWord, get, set, didSet, willSet, enumWord, string, letWord, varWord, caseWord, assign, question
    case privateCloudDatabase, publicCloudDatabase, sharedCloudDatabase
    case structWord, classWord, extensionWord, protocolWord, actorWord, selfWord, returnWord
    // The words `values` and `end` test (`s.is(k, "as")` was a tenth of a dense scan, a call
    // and a walk of the word's UTF-8 each time).
    case asWord, elseWord, database, defaultWord, id, ckRecordZone, ckRecord, ckQuery, ckQuerySubscription, ckDatabaseSubscription
    case ckRecordZoneSubscription, nsSortDescriptor, nsPredicate, ckSubscription, notificationInfoType, ckNotificationInfo
    case rawValue, zoneID, selfType, trueWord

    private static let spelled: [(ScanWord, [UInt8])] = ([
        (.funcWord, "func"), (.initWord, "init"), (.get, "get"), (.set, "set"), (.didSet, "didSet"), (.willSet, "willSet"),
        (.enumWord, "enum"), (.string, "String"), (.letWord, "let"), (.varWord, "var"), (.caseWord, "case"),
        (.privateCloudDatabase, "privateCloudDatabase"), (.publicCloudDatabase, "publicCloudDatabase"), (.sharedCloudDatabase, "sharedCloudDatabase"),
        (.structWord, "struct"), (.classWord, "class"), (.extensionWord, "extension"), (.protocolWord, "protocol"), (.actorWord, "actor"),
        (.selfWord, "self"), (.returnWord, "return"),
        (.asWord, "as"), (.elseWord, "else"), (.database, "database"), (.defaultWord, "default"), (.id, "ID"), (.ckRecordZone, "CKRecordZone"),
        (.ckRecord, "CKRecord"), (.ckQuery, "CKQuery"), (.ckQuerySubscription, "CKQuerySubscription"), (.ckDatabaseSubscription, "CKDatabaseSubscription"),
        (.ckRecordZoneSubscription, "CKRecordZoneSubscription"), (.nsSortDescriptor, "NSSortDescriptor"), (.nsPredicate, "NSPredicate"),
        (.ckSubscription, "CKSubscription"), (.notificationInfoType, "NotificationInfo"), (.ckNotificationInfo, "CKNotificationInfo"),
        (.rawValue, "rawValue"), (.zoneID, "zoneID"), (.selfType, "Self"), (.trueWord, "true"),
    ] as [(ScanWord, String)]).map { ($0.0, Array($0.1.utf8)) }
    /// Every word and its spelling (for the test that holds `classify` to `SwiftSource.is`).
    static var spellings: [(ScanWord, [UInt8])] { spelled }
    /// The words by length (the longest, `CKRecordZoneSubscription`, is 24 bytes).
    private static let byLength: [[(ScanWord, [UInt8])]] = (0...(spelled.map(\.1.count).max() ?? 0)).map { n in spelled.filter { $0.1.count == n } }
    /// The words by length and first byte (`length << 8 | first`): most identifiers of a file
    /// share no length and first byte with a word, and are passed over without a comparison.
    private static let byShape: [[(ScanWord, [UInt8])]] = {
        var out = [[(ScanWord, [UInt8])]](repeating: [], count: byLength.count << 8)
        for (word, text) in spelled { out[text.count << 8 | Int(text[0])].append((word, text)) }
        return out
    }()

    /// `byShape`'s non-empty buckets.
    private static let hasShape: [Bool] = byShape.map { !$0.isEmpty }

    /// Each token's word (`SwiftSource.is(_:_:)`'s rule: an identifier or operator spelt so; no
    /// word is an operator but `=` and `?`, nor begins with `#`, so `word(k) == .rawValue` is
    /// `s.is(k, "rawValue")`).
    static func classify(_ s: SwiftSource) -> [ScanWord] {
        var out = [ScanWord](repeating: .other, count: s.tokens.count)
        let table = byShape
        // Whether a word has each shape: a name with none is passed over without its bucket.
        let shapes = hasShape
        s.bytes.withUnsafeBufferPointer { bytes in
            for (i, t) in s.tokens.enumerated() {
                let start = Int(t.start), len = Int(t.end) - start
                switch t.kind {
                case .identifier:
                    guard len > 0, len < byLength.count, shapes[len << 8 | Int(bytes[start])] else { continue }
                    for (word, text) in table[len << 8 | Int(bytes[start])] where text.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress! + start, len) == 0 }) {
                        out[i] = word
                        break
                    }
                case .operator where len == 1:
                    if bytes[start] == UInt8(ascii: "=") { out[i] = .assign } else if bytes[start] == UInt8(ascii: "?") { out[i] = .question }
                default: break
                }
            }
        }
        return out
    }
}

/// One Swift file's tokens with the lookups the scan makes: function bodies, the locals
/// assigned in each, the file-level constants and the string enums' cases.
struct SwiftCallReader {
    let s: SwiftSource
    /// Each token's word.
    let words: [ScanWord]
    /// Function bodies (`{` index, `}` index), in order of their opening.
    private(set) var bodies: [(Int, Int)] = []
    /// For each token, the index in `bodies` of the innermost one holding it, or -1.
    private var bodyOf: [Int32] = []
    /// Each body's function parameters (their names inside the body), as `bodies` is ordered.
    /// A list, not a `Set`: a function has a few, and only `contains` asks (a set built per
    /// function was a measured part of reading a dense file).
    private var parameters: [[String]] = []
    /// Assignments by name: the body they are in (-1 outside any: a property, or `self.x = v`),
    /// the index of the value's first token, the type declaration holding it (-1 at file level),
    /// and whether it sets an instance property (`self.x = v`, `x = v` in an `init`, a computed
    /// property): no constant other files or `Type.x` can name.
    private(set) var assignments: [String: [(body: Int, value: Int, container: Int, property: Bool)]] = [:]
    /// Type declarations (`struct`, `class`, `enum`, `extension`, `protocol`, `actor`): the
    /// `{` and `}` indices, the type's name (an extension's last name) and the one holding it (-1).
    private(set) var containers: [(open: Int, close: Int, name: String, parent: Int)] = []
    /// For each token, the index in `containers` of the innermost one holding it, or -1.
    private var containerOf: [Int32] = []
    /// Each container's name as a number: two declarations of one type (an extension) share it.
    private var containerNames: [Int] = []
    /// The declarations outside any function of each name, by the number of the name of the
    /// type holding them (-1 at file level): a bare name's lookup reads only the types around it.
    /// Each assigned name's tables, by the name's number (`names`): a lookup finds its name once,
    /// not once per table (three `String` hashes and a `String` made per lookup were a measured
    /// part of a dense scan).
    private var tables: [NameTable] = []
    /// Each assigned name's number in `tables`.
    private var names: [String: Int] = [:]
    /// `names` found from a name token's bytes (no `String` made), where the bytes can decide.
    private var nameBytes = ScanNameIndex()
    /// Each container name's number (`containerNames`).
    private var containerIDs: [String: Int] = [:]
    /// String enum cases: name to raw value.
    private(set) var enumCases: [String: [String]] = [:]

    /// One name's declarations.
    struct NameTable {
        /// Its assignments inside functions, by body: a local's lookup reads its own function's only.
        /// Sorted by body (in the order added within one), read by `locals(in:)`: one array per
        /// name, not one per function it is assigned in (a dictionary of those was a measured
        /// part of reading a dense file).
        var locals: [(body: Int, value: Int, container: Int, property: Bool)] = []

        /// The assignments in function body `body`, in the order added.
        func locals(in body: Int) -> ArraySlice<(body: Int, value: Int, container: Int, property: Bool)> {
            var lo = 0, hi = locals.count
            while lo < hi { let mid = (lo + hi) / 2; if locals[mid].body < body { lo = mid + 1 } else { hi = mid } }
            var end = lo
            while end < locals.count, locals[end].body == body { end += 1 }
            return locals[lo..<end]
        }
        /// Its declarations outside any function, by the number of the name of the type holding
        /// them (-1 at file level): a bare name's lookup reads only the types around it.
        var members: [Int: [(body: Int, value: Int, container: Int, property: Bool)]] = [:]
        /// Its declarations outside any function that are constants (no instance property set in
        /// code), which `Type.x` and `.x` can name.
        var constants: [(body: Int, value: Int, container: Int, property: Bool)] = []
    }

    static let maxDepth = 8
    /// How many enclosing type declarations a name's lookup looks through (bounded on any input).
    static let maxNesting = 16
    /// How many declarations of one name that one use can see a lookup weighs before it gives up.
    static let maxDeclarations = 16

    /// The bare names' values already found (nil: found afresh each time, for the test).
    private let memo: ScanLookupMemo?

    init(_ s: SwiftSource, memoizes: Bool = true) {
        self.s = s
        memo = memoizes ? ScanLookupMemo() : nil
        words = ScanWord.classify(s)
        let n = s.tokens.count
        var stringEnums: [(Int, Int)] = []
        var initOpens: Set<Int> = []
        var paramsByOpen: [Int: [String]] = [:]
        var i = 0
        while i < n {
            let w = words[i]
            if w == .structWord || w == .classWord || w == .enumWord || w == .extensionWord || w == .protocolWord || w == .actorWord, s.isName(i + 1), !s.is(i - 1, .period),
               let first = s.name(i + 1).unicodeScalars.first, first.properties.isUppercase || first == "_" {
                // The type's name: an extension's last (`extension CKRecord.RecordType` is `RecordType`).
                var k = i + 1
                var name = s.name(k)
                k += 1
                while s.is(k, .period), s.isName(k + 1) { name = s.name(k + 1); k += 2 }
                while k < n, !s.is(k, .leftBrace), !s.is(k, .rightBrace), !s.is(k, .semicolon), !s.is(k, .endOfFile) {
                    if s.is(k, .leftParen) || s.is(k, .leftBracket) { k = s.skipGroup(k) } else { k += 1 }
                }
                if s.is(k, .leftBrace), let close = s.matching(k) { containers.append((k, close, name, -1)) }
            }
            if w == .funcWord || (w == .initWord && (s.is(i + 1, .leftParen) || word(i + 1) == .question)) || ((w == .get || w == .set || w == .didSet || w == .willSet) && s.is(i + 1, .leftBrace)) {
                var k = i + 1
                while k < n, !s.is(k, .leftBrace), !s.is(k, .rightBrace), !s.is(k, .endOfFile) {
                    if s.is(k, .leftParen) || s.is(k, .leftBracket) { k = s.skipGroup(k) } else { k += 1 }
                    if k < n, s.is(k, .leftBrace) || s.is(k, .rightBrace), s.tokens[k].flags.contains(.newlineBefore), s.is(k, .rightBrace) { break }
                }
                if s.is(k, .leftBrace), let close = s.matching(k) {
                    bodies.append((k, close))
                    if w == .initWord { initOpens.insert(k) }
                    // The parameters' own names: the name before each `:` of the first parenthesis.
                    var p = i + 1
                    while p < k, !s.is(p, .leftParen) { p += 1 }
                    if p < k, let end = s.matching(p) {
                        var names: [String] = []
                        var j = p + 1
                        while j < end {
                            if s.isName(j), s.is(j + 1, .colon) { names.append(s.name(j)) }
                            j = s.skipGroup(j)
                        }
                        if !names.isEmpty { paramsByOpen[k, default: []] += names }
                    }
                }
            }
            if w == .enumWord, s.isName(i + 1), s.is(i + 2, .colon), word(i + 3) == .string {
                var k = i + 3
                while k < n, !s.is(k, .leftBrace), !s.is(k, .endOfFile) { k += 1 }
                if let close = s.matching(k) { stringEnums.append((k, close)) }
            }
            i += 1
        }
        // One entry per `{` (two `init`s before one brace find it twice).
        bodies.sort { $0.0 < $1.0 }
        var unique: [(Int, Int)] = []
        for b in bodies where unique.last?.0 != b.0 { unique.append(b) }
        bodies = unique
        parameters = bodies.map { paramsByOpen[$0.0] ?? [] }
        bodyOf = Self.innermost(bodies, count: n)
        containers.sort { $0.open < $1.open }
        containerOf = Self.innermost(containers.map { ($0.open, $0.close) }, count: n)
        for c in containers.indices where containers[c].open > 0 { containers[c].parent = Int(containerOf[containers[c].open - 1]) }
        var ids: [String: Int] = [:]
        containerNames = containers.map { c in
            if let id = ids[c.name] { return id }
            ids[c.name] = ids.count
            return ids.count - 1
        }
        containerIDs = ids
        // Locals declared in each body (`let x`, `var x`, with or without a value), and the bare
        // `x = v` of an `init` that set a property of the same name.
        /// A local's body and name (a struct rather than an interpolated `String`: one a `let`).
        struct Local: Hashable { var body: Int; var name: String }
        /// Each local's body and name token, kept as numbers: only an `init`'s bare `x = v` asks
        /// (`initSets`), so the set of names is built only for a file that has one.
        var declaredAt: [(body: Int, name: Int)] = []
        var initSets: [(name: Int, body: Int, value: Int, container: Int)] = []
        /// The assignments grouped by name from the name token's bytes (`ScanNameGroups`): a
        /// `String` made and hashed per assignment was a measured part of reading a dense file.
        var groups = ScanNameGroups()
        for i in 0..<n {
            // `let x = v`, `var x: T = v`, `x = v` (at the start of a statement).
            let w = words[i]
            if w == .letWord || w == .varWord, s.isName(i + 1) {
                var k = i + 2
                if s.is(k, .colon) {
                    k += 1
                    while k < n, word(k) != .assign, !s.tokens[k].flags.contains(.newlineBefore), !s.is(k, .endOfFile), !s.is(k, .leftBrace) {
                        if s.is(k, .leftParen) || s.is(k, .leftBracket) { k = s.skipGroup(k) } else { k += 1 }
                    }
                }
                let b = body(at: i)
                if b >= 0 { declaredAt.append((b, i + 1)) }
                if word(k) == .assign {
                    groups.add(s, i + 1, (b, k + 1, container(at: i), false))
                } else if w == .varWord, b < 0, s.is(k, .leftBrace), let close = s.matching(k), word(k + 1) != .get, word(k + 1) != .set, word(k + 1) != .didSet, word(k + 1) != .willSet {
                    // A computed property of one expression: `var database: CKDatabase { container.publicCloudDatabase }`.
                    let v = word(k + 1) == .returnWord ? k + 2 : k + 1
                    if v < close, end(v) == close { groups.add(s, i + 1, (-1, v, container(at: i), true)) }
                }
            } else if w == .selfWord, s.is(i + 1, .period), s.isName(i + 2), word(i + 3) == .assign, i == 0 || s.tokens[i].flags.contains(.newlineBefore) || s.is(i - 1, .leftBrace) || s.is(i - 1, .semicolon) {
                // `self.x = v`: a value of the property `x`, wherever it is set.
                groups.add(s, i + 2, (-1, i + 4, container(at: i), true))
            } else if word(i + 1) == .assign, s.isName(i), !s.is(i - 1, .period), i == 0 || s.tokens[i].flags.contains(.newlineBefore) || s.is(i - 1, .leftBrace) || s.is(i - 1, .semicolon) {
                let b = body(at: i)
                groups.add(s, i, (b, i + 2, container(at: i), false))
                if b >= 0, initOpens.contains(bodies[b].0) { initSets.append((i, b, i + 2, container(at: i))) }
            }
            if w == .caseWord, stringEnums.contains(where: { $0.0 < i && i < $0.1 }) {
                var k = i + 1
                while s.isName(k) {
                    let name = s.name(k)
                    if s.is(k + 1, "="), s.is(k + 2, .stringLiteral), let v = s.stringValue(k + 2) {
                        enumCases[name, default: []].append(v); k += 3
                    } else if !s.is(k + 1, .leftParen) {
                        enumCases[name, default: []].append(name); k += 1
                    } else { break }
                    guard s.is(k, .comma) else { break }
                    k += 1
                }
            }
        }
        // `x = v` in an `init` that declares no local `x` sets the property `x`.
        let declared = initSets.isEmpty ? [] : Set(declaredAt.map { Local(body: $0.body, name: s.name($0.name)) })
        for a in initSets where !declared.contains(Local(body: a.body, name: s.name(a.name))) {
            groups.add(s, a.name, (-1, a.value, a.container, true))
        }
        // One `String` per name, not per assignment; the groups' names are distinct as
        // `String`s (`ScanNameGroups`), so each is one key, as the dictionary's appends gave.
        assignments.reserveCapacity(groups.names.count)
        for g in groups.names.indices { assignments[groups.names[g]] = groups.lists[g] }
        // Each name's tables built apart and stored once (not a lookup of the name per assignment).
        for (word, list) in zip(groups.names, groups.lists) {
            var byBody = list.filter { $0.body >= 0 }
            // Token order is body order but where a function nests in another: sorted then,
            // each body's own in the order added.
            if zip(byBody, byBody.dropFirst()).contains(where: { $0.body > $1.body }) {
                byBody = byBody.enumerated().sorted { ($0.element.body, $0.offset) < ($1.element.body, $1.offset) }.map(\.element)
            }
            var byContainer: [Int: [(body: Int, value: Int, container: Int, property: Bool)]] = [:]
            var constant: [(body: Int, value: Int, container: Int, property: Bool)] = []
            for a in list where a.body == -1 {
                byContainer[a.container < 0 ? -1 : containerNames[a.container], default: []].append(a)
                if !a.property { constant.append(a) }
            }
            guard !byBody.isEmpty || !byContainer.isEmpty || !constant.isEmpty else { continue }
            names[word] = tables.count
            tables.append(NameTable(locals: byBody, members: byContainer, constants: constant))
        }
        nameBytes = ScanNameIndex(names)
    }

    /// The number in `tables` of the name at token `n` (its text as `SwiftSource.name` gives
    /// it), nil when no assignment names it: found by the token's bytes where they decide
    /// (`ScanNameIndex`), else by its `String`.
    func table(_ n: Int) -> Int? {
        if let bounds = s.nameBounds(n), let found = s.bytes.withUnsafeBufferPointer({ nameBytes.find($0, bounds) }) { return found < 0 ? nil : found }
        return tableByName(n)
    }

    /// The assignments of the name `word` in function body `body` as the name's table holds
    /// them (`NameTable.locals(in:)`), for the test that holds them to `assignments`.
    func locals(named word: String, in body: Int) -> [(body: Int, value: Int, container: Int, property: Bool)] {
        names[word].map { Array(tables[$0].locals(in: body)) } ?? []
    }

    /// `table(_:)` by the name's `String` (the general path, and the test's).
    func tableByName(_ n: Int) -> Int? { n >= 0 && n < s.tokens.count ? names[s.name(n)] : nil }

    /// True when the name at token `n` is one of `parameters` (`contains(s.name(n))`, compared in place for a name).
    private func isParameter(_ n: Int, _ parameters: [String]) -> Bool {
        guard !parameters.isEmpty else { return false }
        if s.isName(n) { return parameters.contains { s.nameIs(n, $0) } }
        return parameters.contains(s.name(n))
    }

    /// Token `i`'s word; `.other` outside the file.
    func word(_ i: Int) -> ScanWord { i >= 0 && i < words.count ? words[i] : .other }

    /// The innermost function body holding token `i` (its index in `bodies`), or -1.
    func body(at i: Int) -> Int {
        i >= 0 && i < bodyOf.count ? Int(bodyOf[i]) : -1
    }

    /// The innermost type declaration holding token `i` (its index in `containers`), or -1.
    func container(at i: Int) -> Int {
        i >= 0 && i < containerOf.count ? Int(containerOf[i]) : -1
    }

    /// The name tokens of `k..<e` when it is a dotted chain of names (`A.B.c`, `.a.b`), else nil.
    func chain(_ k: Int, _ e: Int) -> [Int]? {
        // Checked before any array is made: most expressions asked (`NSNumber(value: 1)`) are no chain.
        let first = s.is(k, .period) ? k + 1 : k
        var j = first
        while true {
            guard j < e, s.isName(j) else { return nil }
            if j + 1 == e { break }
            guard s.is(j + 1, .period) else { return nil }
            j += 2
        }
        return Array(stride(from: first, through: j, by: 2))
    }

    /// For each token, the innermost body holding it (a body holds its `{`, not its `}`),
    /// found in one sweep: bodies are bracket pairs, so they nest and a stack follows them.
    /// The stack changes only where a body opens or the innermost closes, so each run between
    /// two such tokens is filled at once rather than the stack asked at every token.
    private static func innermost(_ bodies: [(Int, Int)], count n: Int) -> [Int32] {
        var out = [Int32](repeating: -1, count: n)
        var open: [Int] = []
        var next = 0
        var i = 0
        out.withUnsafeMutableBufferPointer { out in
            while i < n {
                while let top = open.last, bodies[top].1 <= i { open.removeLast() }
                while next < bodies.count, bodies[next].0 == i { open.append(next); next += 1 }
                // The next token where the stack can change: the next opening or the top's closing.
                var stop = n
                if next < bodies.count { stop = min(stop, bodies[next].0) }
                if let top = open.last { stop = min(stop, bodies[top].1) }
                stop = max(stop, i + 1)
                if let top = open.last {
                    let v = Int32(top)
                    for j in i..<stop { out[j] = v }
                }
                i = stop
            }
        }
        return out
    }

    /// `innermost` as it was, one token at a time: the test holds the two to the same answers.
    static func innermostByToken(_ bodies: [(Int, Int)], count n: Int) -> [Int32] {
        var out = [Int32](repeating: -1, count: n)
        var open: [Int] = []
        var next = 0
        for i in 0..<n {
            while let top = open.last, bodies[top].1 <= i { open.removeLast() }
            while next < bodies.count, bodies[next].0 == i { open.append(next); next += 1 }
            if let top = open.last { out[i] = Int32(top) }
        }
        return out
    }

    /// `innermost`, for the test.
    static func innermostByRun(_ bodies: [(Int, Int)], count n: Int) -> [Int32] { innermost(bodies, count: n) }

    // MARK: Expressions

    /// The index just past the expression that starts at `k`: up to a comma, a closing
    /// bracket, a `{`, a `;` or a line break at depth 0.
    func end(_ k: Int) -> Int {
        var j = k
        while j < s.tokens.count - 1 {
            let t = s.tokens[j]
            if j > k, t.flags.contains(.newlineBefore), t.kind != .period { break }
            switch t.kind {
            case .comma, .rightParen, .rightBracket, .rightBrace, .semicolon, .leftBrace, .endOfFile: return j
            case .leftParen, .leftBracket: j = s.skipGroup(j)
            default:
                // (`{` is never an identifier or operator token: its kind is `.leftBrace`, above.)
                let w = word(j)
                if w == .asWord || w == .elseWord { return j }
                j += 1
            }
        }
        return j
    }

    /// The labelled arguments of the call whose `(` is at `p`: label (nil when none) and first token.
    func arguments(_ p: Int) -> [(label: String?, start: Int)] {
        guard s.is(p, .leftParen) || s.is(p, .leftBracket), let close = s.matching(p) else { return [] }
        // Built with its labelled type: an array of unlabelled tuples returned as labelled ones
        // is converted element by element (`_arrayForceCast`, 4% of a dense scan).
        var out: [(label: String?, start: Int)] = []
        var k = p + 1
        while k < close {
            if s.isName(k), s.is(k + 1, .colon) { out.append((s.name(k), k + 2)) } else { out.append((nil, k)) }
            var j = out[out.count - 1].start
            while j < close, !s.is(j, .comma) { j = s.skipGroup(j) }
            k = j + 1
        }
        return out
    }

    /// `arguments(p).first` with its label as the label's token (nil when none): no array, no `String`.
    func firstArgument(_ p: Int) -> (label: Int?, start: Int)? {
        guard s.is(p, .leftParen) || s.is(p, .leftBracket), let close = s.matching(p), p + 1 < close else { return nil }
        return s.isName(p + 1) && s.is(p + 2, .colon) ? (p + 1, p + 3) : (nil, p + 1)
    }

    /// The first token of the argument labelled `label` of the call whose `(` is at `p`:
    /// `arguments(p).first { $0.label == label }?.start`, walking the same arguments with no
    /// array and no label made into a `String` (`SwiftSource.nameIs`).
    func argument(_ p: Int, _ label: String) -> Int? {
        guard s.is(p, .leftParen) || s.is(p, .leftBracket), let close = s.matching(p) else { return nil }
        var k = p + 1
        while k < close {
            var j = k
            if s.isName(k), s.is(k + 1, .colon) {
                if s.nameIs(k, label) { return k + 2 }
                j = k + 2
            }
            while j < close, !s.is(j, .comma) { j = s.skipGroup(j) }
            k = j + 1
        }
        return nil
    }

    /// `argument(_:_:)` as it was, for the test that holds the two to the same answers.
    func argumentByList(_ p: Int, _ label: String) -> Int? { arguments(p).first { $0.label == label }?.start }

    /// The values the expression at `k` can have, or nil when it cannot be followed.
    func values(_ k: Int, _ scope: Int, _ globals: ScanGlobals, depth: Int = 0) -> ScanValues? {
        guard depth < Self.maxDepth, k < s.tokens.count else { return nil }
        let e = end(k)
        guard e > k else { return nil }
        func at(_ offset: Int, _ w: ScanWord) -> Bool { k + offset < e && word(k + offset) == w }
        let count = e - k
        // The expression's items at depth 0, a bracketed group counted as one.
        var top = 0
        var j = k
        while j < e { top += 1; j = s.skipGroup(j) }
        if count == 1, let v = s.stringValue(k) { return [.string(v)] }
        if count == 1, s.tokens[k].kind == .stringLiteral { return nil }
        // Databases: `...privateCloudDatabase`, `....database(with: .public)`.
        if let last = dbName(e - 1) { return [.database(last)] }
        if s.is(e - 1, .rightParen), let open = s.matching(e - 1), open > k, word(open - 1) == .database, let w = argument(open, "with"), s.is(w, .period), let d = Database(rawValue: s.name(w + 1)) {
            return [.database(d)]
        }
        if at(0, .ckRecordZone) {
            // CKRecordZone.default(), .default().zoneID, CKRecordZone.ID.default, CKRecordZone.ID(zoneName:), CKRecordZone(zoneName:)
            if s.is(k + 1, .period) {
                if word(k + 2) == .defaultWord, s.is(k + 3, .leftParen) { return [.zone(Zone.defaultZoneName)] }
                if word(k + 2) == .id, s.is(k + 3, .period), word(k + 4) == .defaultWord { return [.zone(Zone.defaultZoneName)] }
                if word(k + 2) == .id, s.is(k + 3, .leftParen) { return zoneNamed(k + 3, scope, globals, depth) }
            }
            if s.is(k + 1, .leftParen) { return zoneNamed(k + 1, scope, globals, depth) }
            return nil
        }
        if s.is(k, .period), count == 2, word(k + 1) == .defaultWord { return [.zone(Zone.defaultZoneName)] }   // `.default` as a CKRecordZone.ID
        if at(0, .ckRecord), s.is(k + 1, .period), word(k + 2) == .id, s.is(k + 3, .leftParen) {
            guard argument(k + 3, "recordName") != nil else { return nil }
            guard let z = argument(k + 3, "zoneID") else { return [.recordID(zone: Zone.defaultZoneName)] }
            // `values(z).compactMap` of the zones, then each made a record ID, in the array itself.
            if let v = values(z, scope, globals, depth: depth + 1) {
                var ids = ScanValues()
                for x in v { if case .zone(let n) = x { ids.append(.recordID(zone: n)) } }
                if !ids.isEmpty { return ids }
            }
            return [.recordID(zone: nil)]
        }
        if top == 2, s.is(k + 1, .leftParen) {
            if word(k) == .ckRecord { return [.record(k)] }
            if word(k) == .ckQuery { return [.query(k)] }
            if word(k) == .ckQuerySubscription || word(k) == .ckDatabaseSubscription || word(k) == .ckRecordZoneSubscription { return [.subscription(k)] }
            if word(k) == .nsSortDescriptor, let key = argument(k + 1, "key") {
                guard let v = values(key, scope, globals, depth: depth + 1) else { return nil }
                return Self.strings(v, as: ScanValue.sort)
            }
            if word(k) == .nsPredicate { return predicate(k + 1, scope, globals, depth).map { [.predicate($0)] } }
        }
        if top == 4, word(k) == .ckSubscription, word(k + 2) == .notificationInfoType, s.is(k + 3, .leftParen) { return [.notificationInfo(k)] }
        if top == 2, word(k) == .ckNotificationInfo, s.is(k + 1, .leftParen) { return [.notificationInfo(k)] }
        // `.name.rawValue`, `Type.name.rawValue`, `A.B.name.rawValue`: a string enum's case.
        if word(e - 1) == .rawValue, s.is(e - 2, .period), s.isName(e - 3), e - 3 > k, let names = chain(k, e - 2), names.count >= (s.is(k, .period) ? 1 : 2) {
            return globals.enumRaw(s.name(e - 3)).map { [.string($0)] }
        }
        // `A.B.name` (types nested to any depth): the constant `name`, as `Type.name` is.
        if count >= 5, let names = chain(k, e), names.count == (count + 1) / 2, names.dropLast().allSatisfy({ s.name($0).first?.isUppercase == true }) {
            return name(names[names.count - 1], -2, globals, depth)
        }
        // A name: `x`, `.x`, `Type.x`, `self.x`, `Self.x`, `x.zoneID`, `x.recordID`.
        var nameIndex: Int?
        if count == 1, s.isName(k) { nameIndex = k }
        if count == 2, s.is(k, .period), s.isName(k + 1) { nameIndex = k + 1 }
        if count == 3, s.isName(k), s.is(k + 1, .period), s.isName(k + 2) {
            // `zone.zoneID`, `id.zoneID` on a local; `Self.zoneID`, `Store.zoneID` name a constant.
            if word(k + 2) == .zoneID, word(k) != .selfWord, let c = s.name(k).first, c.isLowercase {
                guard let inner = name(k, scope, globals, depth) else { return nil }
                var zones = ScanValues()
                for v in inner {
                    switch v {
                    case .zone(let z), .recordID(let z): zones.append(.zone(z))
                    default: return nil
                    }
                }
                return zones
            }
            nameIndex = k + 2
            // `value.x` is a property of another object (`namespaceID.namespaceKey`): not a constant.
            if !(word(k) == .selfWord || word(k) == .selfType), let c = s.name(k).first, c.isLowercase { return nil }
            if !(word(k) == .selfWord || word(k) == .selfType), let own = name(k + 2, -2, globals, depth) { return own }
        }
        guard let n = nameIndex else { return nil }
        return name(n, count == 1 ? scope : -2, globals, depth)
    }

    /// The values of the name at token `n`: its assignments in `scope` (the enclosing
    /// function), else the file-level constants of every scanned file (one value only).
    func name(_ n: Int, _ scope: Int, _ globals: ScanGlobals, _ depth: Int) -> ScanValues? {
        // One resolution (a name the collector asks for, and every name its values lead through)
        // looks up at most `ScanGlobals.lookupBudget` names: declarations that lead to several
        // declarations each, level after level, cost a bounded amount, not one per path.
        if depth == 0 { globals.lookups = 0 }
        guard globals.spend() else { return nil }
        let named = table(n)
        // The assignments before `n`, read in place (no filtered copy).
        if scope >= 0, let named, case let local = tables[named].locals(in: scope), local.contains(where: { $0.value < n }) {
            var out = ScanValues()
            for a in local where a.value < n {
                guard let v = values(a.value, scope, globals, depth: depth + 1) else { return nil }
                // The first values taken as they are when there is nothing to repeat (no second array).
                if out.isEmpty, v.count <= 1 { out = v } else { for x in v where !out.contains(x) { out.append(x) } }
            }
            return out
        }
        // A parameter of the function is what the caller passes: not resolved, whatever a
        // property or constant of the same name holds.
        if scope >= 0, scope < parameters.count, !s.is(n - 1, .period), isParameter(n, parameters[scope]) { return nil }
        // This file's own constants first (two types may each have a `database`), then every file's.
        // A bare name (`zoneID`, `self.zoneID`) is the property of the type it is written in (or
        // of a type holding that one, or a file-level constant): never another type's of this file.
        // `Type.x` is the `x` of a declaration named `Type` when this file has one; an instance
        // property set in code (`self.x = v`) is never `Type.x` or `.x`.
        let bare = !s.is(n - 1, .period) || self.word(n - 2) == .selfWord || self.word(n - 2) == .selfType
        // A bare name's declarations outside functions give the same values wherever the name
        // is used in one type (`database` in each of a class's functions): found once per
        // type and depth, then reused (`ScanLookupMemo`).
        if bare, let named, let memo { return memo.value(named, container(at: n), depth, globals) { declaredValues(n, named, bare, globals, depth) } }
        return declaredValues(n, named, bare, globals, depth)
    }

    /// `name(_:_:_:_:)` past the function's locals and parameters: the declarations outside
    /// functions of the name at token `n` (number `named` in `tables`), else any file's constant.
    private func declaredValues(_ n: Int, _ named: Int?, _ bare: Bool, _ globals: ScanGlobals, _ depth: Int) -> ScanValues? {
        let declared = named.map { tables[$0].members } ?? [:]
        var own: [(body: Int, value: Int, container: Int, property: Bool)] = []
        if bare {
            // The file level, then each type holding `n` by name (at most `maxNesting` out).
            // A type name already read is one of the types on the way out (at most `maxNesting`),
            // looked through again rather than kept in an array made per lookup.
            own = declared[-1] ?? []
            let innermost = container(at: n)
            var at = innermost
            var level = 0
            while at >= 0, level < Self.maxNesting {
                let id = containerNames[at]
                var seen = false
                var before = innermost
                for _ in 0..<level where !seen {
                    seen = containerNames[before] == id
                    before = containers[before].parent
                }
                if !seen, let more = declared[id] { if own.isEmpty { own = more } else { own += more } }
                at = containers[at].parent
                level += 1
            }
        } else {
            own = named.map { tables[$0].constants } ?? []
        }
        if !bare, s.is(n - 1, .period), s.isName(n - 2) {
            // `Type.x`: the `x` of a declaration named `Type` when this file has one, else any's.
            let qualifier = s.name(n - 2)
            let typed = (containerIDs[qualifier].flatMap { declared[$0] } ?? []).filter { !$0.property }
            if !typed.isEmpty { own = typed }
        }
        // A name valid Swift declares a few times where one use can see it: more than
        // `maxDeclarations` is not resolved, so a lookup's cost stays bounded whatever the file holds.
        guard own.count <= Self.maxDeclarations else { return nil }
        if !own.isEmpty {
            var out = ScanValues()
            for a in own {
                guard let v = values(a.value, -1, globals, depth: depth + 1), v.count == 1 else { out = []; break }
                if out.isEmpty { out = v } else if !out.contains(v[0]) { out.append(v[0]) }
            }
            if out.count == 1 { return out }
        } else if bare, declared.count > 0 {
            return nil
        }
        // A resolution that ran out of lookups gives nothing, not another file's value of the name.
        guard !globals.exhausted else { return nil }
        return globals.constant(s.name(n), depth)
    }

    /// True when every byte of `text` is ASCII: there Foundation's `contains` of one ASCII
    /// character is a byte search (no combining mark or composed character to match).
    static func isASCII(_ text: String) -> Bool {
        // Over the bytes themselves where they are contiguous (a native `String`'s are): the
        // view's generic loop cost more than the test.
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// `text.utf8.contains(byte)`, over the contiguous bytes where they are.
    static func contains(_ text: String, _ byte: UInt8) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? text.utf8.contains(byte)
    }

    func dbName(_ i: Int) -> Database? {
        switch word(i) {
        case .privateCloudDatabase: .private
        case .publicCloudDatabase: .public
        case .sharedCloudDatabase: .shared
        default: nil
        }
    }

    private func zoneNamed(_ p: Int, _ scope: Int, _ globals: ScanGlobals, _ depth: Int) -> ScanValues? {
        if let zid = argument(p, "zoneID") { return values(zid, scope, globals, depth: depth + 1) }
        guard let z = argument(p, "zoneName") else { return nil }
        guard let v = values(z, scope, globals, depth: depth + 1) else { return nil }
        return Self.strings(v, as: ScanValue.zone)
    }

    /// `values.compactMap { if case .string(let v) = $0 { make(v) } else { nil } }` in the array
    /// itself (`values` is the caller's own: no second array is made).
    static func strings(_ values: ScanValues, as make: (String) -> ScanValue) -> ScanValues {
        var out = ScanValues()
        for v in values { if case .string(let v) = v { out.append(make(v)) } }
        return out
    }

    /// `NSPredicate(value: true)` or `NSPredicate(format: "...", args...)` at `(` index `p`.
    /// `byCharacter` takes the general loop for an ASCII format too (the test holds the two to one answer).
    func predicate(_ p: Int, _ scope: Int, _ globals: ScanGlobals, _ depth: Int, byCharacter: Bool = false) -> ScanPredicate? {
        let args = arguments(p)
        if let v = args.first, v.label == "value" { return s.is(v.start, "true") ? ScanPredicate(text: "TRUEPREDICATE", start: nil, untypedValues: false) : nil }
        guard let f = args.first, f.label == "format", let format = s.stringValue(f.start) else { return nil }
        var rest = args.dropFirst().map(\.start)
        // A byte search where the text is ASCII (Foundation's `contains` was most of this
        // function); otherwise Foundation's answer, as before.
        let ascii = Self.isASCII(format)
        guard ascii ? Self.contains(format, UInt8(ascii: "%")) : format.contains("%") else {
            let start = s.location(f.start)
            return ScanPredicate(text: format, start: SourceLocation(file: start.file, line: start.line, column: start.column + 1), untypedValues: false)
        }
        if ascii, !byCharacter { return asciiPredicate(format, rest, scope, globals, depth) }
        var out = "", untyped = false
        var chars = Substring(format)
        while let r = chars.firstIndex(of: "%") {
            out += chars[..<r]
            let next = chars.index(after: r)
            guard next < chars.endIndex else { return nil }
            let c = chars[next]
            chars = chars[chars.index(after: next)...]
            guard c == "K" || c == "@", !rest.isEmpty else { return nil }
            let arg = rest.removeFirst()
            let resolved = values(arg, scope, globals, depth: depth + 1)
            var text: String?
            if case .string(let v)? = resolved?.first, resolved?.count == 1 { text = v }
            if c == "K" {
                guard let text, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
                out += text
            } else if let text, Self.isASCII(text) ? !text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) : !text.contains("\"") && !text.contains("\\") {
                out += "\"" + text + "\""
            } else {
                out += "\"\""
                untyped = true
            }
        }
        out += chars
        return ScanPredicate(text: out, start: nil, untypedValues: untyped)
    }

    /// The `%K`/`%@` arguments put into an ASCII format (`predicate`'s loop over `Character`s,
    /// by byte): in ASCII text each byte is one `Character` but CR LF, and a `%` is never part
    /// of one, so the two find the same `%`s and the same letters after them (a `%` before
    /// CR LF is refused by both).
    private func asciiPredicate(_ format: String, _ args: [Int], _ scope: Int, _ globals: ScanGlobals, _ depth: Int) -> ScanPredicate? {
        var rest = args[...]
        var out: [UInt8] = []
        var untyped = false
        let u = Array(format.utf8)
        out.reserveCapacity(u.count + 16)
        var from = 0, i = 0
        while i < u.count {
            guard u[i] == UInt8(ascii: "%") else { i += 1; continue }
            out += u[from..<i]
            guard i + 1 < u.count else { return nil }
            let c = u[i + 1]
            i += 2
            from = i
            guard c == UInt8(ascii: "K") || c == UInt8(ascii: "@"), let arg = rest.popFirst() else { return nil }
            let resolved = values(arg, scope, globals, depth: depth + 1)
            var text: String?
            if case .string(let v)? = resolved?.first, resolved?.count == 1 { text = v }
            if c == UInt8(ascii: "K") {
                guard let text, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
                out += text.utf8
            } else if let text, Self.isASCII(text) ? !text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) : !text.contains("\"") && !text.contains("\\") {
                out.append(UInt8(ascii: "\""))
                out += text.utf8
                out.append(UInt8(ascii: "\""))
            } else {
                out += [UInt8(ascii: "\""), UInt8(ascii: "\"")]
                untyped = true
            }
        }
        out += u[from...]
        return ScanPredicate(text: String(decoding: out, as: UTF8.self), start: nil, untypedValues: untyped)
    }
}

/// What a file-level constant is assigned, kept after its file is read (the scan holds
/// one file's tokens at a time, so memory stays flat in the number of files).
enum ScanConstant: Hashable {
    case literal(String), enumRaw(String), alias(String), other
    /// A zone ID or a database, followed without other constants (`CKRecordZone.ID(zoneName: "Journal")`).
    case value(ScanValue)
}

extension SwiftCallReader {
    /// The file-level constants (`let`, `static let`, outside any function).
    var constants: [(String, ScanConstant)] {
        assignments.flatMap { word, list in
            list.filter { $0.body == -1 && !$0.property }.map { a -> (String, ScanConstant) in
                let k = a.value, e = end(k), count = e - k
                if count == 1, let v = s.stringValue(k) { return (word, .literal(v)) }
                if count >= 3, s.is(e - 1, "rawValue"), s.is(e - 2, .period), s.isName(e - 3) { return (word, .enumRaw(s.name(e - 3))) }
                if count == 1, s.isName(k) { return (word, .alias(s.name(k))) }
                if let v = values(k, -1, ScanGlobals()), v.count == 1 {
                    switch v[0] {
                    case .zone(.some), .database: return (word, .value(v[0]))
                    default: break
                    }
                }
                if count == 2, s.is(k, .period), s.isName(k + 1) { return (word, .alias(s.name(k + 1))) }
                if count == 3, s.isName(k), s.is(k + 1, .period), s.isName(k + 2) { return (word, .alias(s.name(k + 2))) }
                if count >= 5, let names = chain(k, e), names.count == (count + 1) / 2, names.dropLast().allSatisfy({ s.name($0).first?.isUppercase == true }) {
                    return (word, .alias(s.name(names[names.count - 1])))
                }
                return (word, .other)
            }
        }
    }
}

/// The constants and enum cases of every scanned file, looked up by name.
///
/// The scan reads each file once: a file's constants are added, then its calls are read
/// with what the files so far declare. Each name a file looks up (the names an alias leads
/// through included) is noted against it; when a later file changes what a name holds (it
/// declares a constant an earlier file named, or makes it ambiguous), the files that looked
/// it up are `stale` and read again at the end, so the findings are those of reading every
/// file after all the constants.
final class ScanGlobals {
    /// A string enum case's raw value across every file: nil once two differ. Kept as that
    /// summary, not the list of every declaration, so a case name that thousands of files
    /// declare (`case title`) costs one lookup, not a set built from thousands of raw values.
    private var enumCases: [String: String?] = [:]
    private var constants: [String: Set<ScanConstant>] = [:]
    /// The files (their index in reading order) that looked each name up, once each.
    private var enumLookers: [String: [Int]] = [:]
    private var constantLookers: [String: [Int]] = [:]
    /// The file being read.
    private var reading = 0
    /// How many times files were added: what a name holds may change only then (`ScanLookupMemo`).
    private(set) var generation = 0
    /// The names the resolution under way has looked up (`SwiftCallReader.name`).
    var lookups = 0
    /// How many names one resolution may look up.
    static let lookupBudget = 4096

    /// Counts one lookup; false once the resolution has used its budget.
    func spend() -> Bool {
        lookups += 1
        return lookups <= Self.lookupBudget
    }

    var exhausted: Bool { lookups > Self.lookupBudget }
    /// The files whose lookups a later file's declarations changed.
    private(set) var stale: Set<Int> = []

    /// Adds the constants and enum cases of the file at `index` in reading order.
    func add(_ r: SwiftCallReader, index: Int) {
        reading = index
        generation += 1
        for (k, list) in r.enumCases {
            for v in list {
                if let known = enumCases[k] {
                    if known != nil, known != v { enumCases[k] = .some(nil); changed(&enumLookers, k) }
                } else {
                    enumCases[k] = .some(v); changed(&enumLookers, k)
                }
            }
        }
        for (k, v) in r.constants where constants[k, default: []].insert(v).inserted { changed(&constantLookers, k) }
    }

    private func changed(_ lookers: inout [String: [Int]], _ name: String) {
        if let files = lookers.removeValue(forKey: name) { stale.formUnion(files) }
    }

    private func looked(_ lookers: inout [String: [Int]], _ name: String) {
        if lookers[name]?.last != reading { lookers[name, default: []].append(reading) }
    }

    /// The raw value of the string enum case `name`, when every declaration of it agrees.
    func enumRaw(_ name: String) -> String? {
        looked(&enumLookers, name)
        return enumCases[name] ?? nil
    }

    /// A constant declared outside any function (`let`, `static let`, `CKRecord.RecordType`
    /// extensions): its one string value; nil when unknown, not a string, or declared with two values.
    func constant(_ word: String, _ depth: Int) -> ScanValues? {
        looked(&constantLookers, word)
        guard depth < SwiftCallReader.maxDepth, let set = constants[word], set.count == 1 else { return nil }
        switch set.first! {
        case .literal(let v): return [.string(v)]
        case .enumRaw(let c): return enumRaw(c).map { [.string($0)] }
        case .alias(let other): return other == word ? nil : constant(other, depth + 1)
        case .other: return nil
        case .value(let v): return [v]
        }
    }
}

/// A reader's bare-name lookups past a function's locals (`SwiftCallReader.name`): the values
/// by the name's number, the innermost type holding the use and the depth, which is all such
/// a lookup reads of the file. The answers also depend on the globals: they are kept for one
/// `ScanGlobals` (held, so no other can take its place) between two of its `add`s.
///
/// A lookup spends the resolution's budget (`ScanGlobals.lookupBudget`): each answer keeps what
/// it spent, is kept only when its lookup did not run out, and is reused only when the budget
/// left covers it (then it is spent again), so every resolution spends as it did and gives
/// what finding it afresh gives. The lookups noted on the globals (`looked`) were noted the
/// first time, and noting them again changes nothing until the next `add`.
final class ScanLookupMemo {
    private struct Key: Hashable {
        var name: Int, container: Int, depth: Int
    }
    private var known: [Key: (values: ScanValues?, spent: Int)] = [:]
    private var globals: ScanGlobals?
    private var generation = 0

    func value(_ name: Int, _ container: Int, _ depth: Int, _ g: ScanGlobals, _ find: () -> ScanValues?) -> ScanValues? {
        if globals !== g || generation != g.generation {
            known.removeAll(keepingCapacity: true)
            globals = g
            generation = g.generation
        }
        let key = Key(name: name, container: container, depth: depth)
        if let hit = known[key], g.lookups + hit.spent <= ScanGlobals.lookupBudget {
            g.lookups += hit.spent
            return hit.values
        }
        let before = g.lookups
        let found = find()
        if !g.exhausted { known[key] = (found, g.lookups - before) }
        return found
    }
}

import CKSchemaDiagnostics
import CKSchemaModel

internal import CYAML
import Foundation

/// Reads YAML through libyaml's event API into `YAMLNode`s, keeping 1-based line
/// and column for every node. Iterative, so a hostile file cannot overflow the
/// stack; bounded in depth, alias expansion and size.
public enum YAMLReader {
    /// Deeper nesting than this is refused (schema files need fewer than 10 levels).
    public static let maxDepth = 64
    /// Aliases may expand to at most this many nodes in all (a billion-laughs file fails fast).
    public static let maxAliasExpansion = 1_000_000
    /// Schema and record YAML files larger than this are refused before parsing.
    public static let maxFileSize = InputFile.schemaLimit

    /// Reads and parses a file. Throws `InputError` with a `file:line:col` diagnostic.
    public static func read(path: String) throws(InputError) -> YAMLDocument {
        let data = try InputFile.read(path: path, limit: maxFileSize)
        return try parse(data, file: path)
    }

    /// Parses YAML text. `file` names it in diagnostics.
    public static func parse(_ data: Data, file: String) throws(InputError) -> YAMLDocument {
        if let bad = TextBytes.firstInvalidUTF8(data) {
            let (line, col) = TextBytes.lineColumn(ofByte: bad, in: data)
            throw InputError(Diagnostic(
                rule: InputRules.notUTF8, "the file is not valid UTF-8 (byte 0x\(String(data[data.startIndex + bad], radix: 16, uppercase: true)) at offset \(bad))",
                at: SourceLocation(file: file, line: line, column: col), fix: "save the file as UTF-8"))
        }
        var builder = TreeBuilder(file: file)
        // Schema YAML runs about one node per 11 bytes.
        builder.storage.reserve(nodes: data.count / 11 + 16)
        // libyaml reads the bytes in place: no copy of the file.
        var thrown: InputError?
        let failure: ParserFailure? = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> ParserFailure? in
            let parser = EventParser(bytes: raw)
            do throws(InputError) { try parser.run(into: &builder) } catch { thrown = error }
            return parser.failure
        }
        if let thrown { throw thrown }
        if let failure {
            throw InputError(failure.diagnostic(file: file, data: data))
        }
        return YAMLDocument(file: file, root: builder.finish(), multilineScalarLines: builder.multiline)
    }
}

/// A libyaml parser error, with everything needed to word it.
struct ParserFailure {
    var problem: String
    var context: String?
    var line: Int
    var column: Int
    var offset: Int
    var isReaderError: Bool
    var contextLine: Int = 0
    var contextColumn: Int = 0

    func diagnostic(file: String, data: Data) -> Diagnostic {
        var line = self.line, column = self.column
        if isReaderError { (line, column) = TextBytes.lineColumn(ofByte: offset, in: data) }
        var message = problem
        if let context {
            message = "\(problem) \(context)"
            if contextLine > 0 && (contextLine, contextColumn) != (line, column) {
                message += " that starts at line \(contextLine), column \(contextColumn)"
            }
        }
        var fix: String?
        if problem.contains("cannot start any token"), byte(at: line, column: column, in: data) == 0x09 {
            message = "found a tab; YAML allows only spaces for indentation"
            fix = "replace the tab with spaces"
        }
        if let worded = indentation(line: line, column: column, data: data) {
            message = worded.message
            fix = worded.fix
            column = worded.column
        }
        let rule = problem.contains("UTF-8") ? InputRules.notUTF8 : InputRules.yamlSyntax
        return .error(rule, message, at: SourceLocation(file: file, line: line, column: column), fix: fix)
    }

    /// libyaml's words for an indentation mistake, in the user's: a key indented to match no
    /// mapping above it ("did not find expected key"), and a key indented under a line that
    /// already has its value ("mapping values are not allowed"), or a value with `: ` in it.
    /// Nil when the failure is not one of those. Source: YAML 1.2.2, 6.1 Indentation Spaces
    /// (a mapping's keys share one indentation; tabs are not indentation).
    private func indentation(line: Int, column: Int, data: Data) -> (message: String, fix: String, column: Int)? {
        let lines = Self.lines(upTo: line, in: data)
        guard line >= 1, line <= lines.count else { return nil }
        let here = lines[line - 1]
        let indent = Self.indent(here)
        // The nearest line above with content (not blank, not a comment).
        var prev = line - 1
        while prev >= 1, Self.isBlankOrComment(lines[prev - 1]) { prev -= 1 }
        let prevIndent = prev >= 1 ? Self.indent(lines[prev - 1]) : 0
        if problem.contains("did not find expected key"), context?.contains("block mapping") == true, contextLine > 0,
           column == indent + 1, indent != contextColumn - 1 {
            let parent = contextColumn - 1
            var message = "this line is indented \(indent) spaces, which matches no mapping above it: the keys of the mapping that starts at line \(contextLine) are indented \(parent) spaces"
            var choices = ["\(parent) spaces to be a key beside line \(contextLine)'s"]
            if prev >= 1, prev != contextLine, prevIndent != parent, prevIndent != indent {
                message += ", and line \(prev) above it is indented \(prevIndent)"
                choices.insert("\(prevIndent) spaces to go on from line \(prev)", at: 0)
            }
            return (message, "indent it with \(choices.joined(separator: ", or ")): every key of one YAML mapping starts in the same column", indent + 1)
        }
        if problem.contains("mapping values are not allowed") {
            if prev >= 1, indent > prevIndent, column > indent + 1, Self.hasInlineValue(lines[prev - 1]) {
                return ("this line is indented more than line \(prev) (\(indent) spaces, not \(prevIndent)), so YAML reads it as more of line \(prev)'s value, where a key cannot be",
                        "indent it with \(prevIndent) spaces to be a key beside line \(prev)'s; or, if it belongs inside that key, put nothing after that key's ':' on line \(prev)", indent + 1)
            }
            if column > indent + 1, Self.hasInlineValue(Array(here[0..<min(here.count, column - 1)])) {
                return ("a value on this line has ': ' in it, which YAML reads as the start of another key",
                        "quote the value (`key: \"a: b\"`), or write it without ': '", column)
            }
        }
        return nil
    }

    /// The first `count` lines of `data`, without their line breaks.
    private static func lines(upTo count: Int, in data: Data) -> [[UInt8]] {
        var out: [[UInt8]] = [], current: [UInt8] = []
        for b in data {
            if out.count >= count { break }
            if b == 0x0A { out.append(current); current = [] } else if b != 0x0D { current.append(b) }
        }
        if out.count < count { out.append(current) }
        return out
    }

    private static func indent(_ line: [UInt8]) -> Int { line.prefix { $0 == 0x20 }.count }

    private static func isBlankOrComment(_ line: [UInt8]) -> Bool {
        guard let first = line.first(where: { $0 != 0x20 && $0 != 0x09 }) else { return true }
        return first == UInt8(ascii: "#")
    }

    /// True when the line is `key: value` with something after the `: ` (a plain scalar).
    private static func hasInlineValue(_ line: [UInt8]) -> Bool {
        guard let colon = line.indices.first(where: { line[$0] == UInt8(ascii: ":") && ($0 + 1 == line.count || line[$0 + 1] == 0x20) }) else { return false }
        let rest = line[(colon + 1)...].drop { $0 == 0x20 }
        guard let first = rest.first else { return false }
        return first != UInt8(ascii: "#") && first != UInt8(ascii: "|") && first != UInt8(ascii: ">") && first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
            && first != UInt8(ascii: "&") && first != UInt8(ascii: "!")
    }

    private func byte(at line: Int, column: Int, in data: Data) -> UInt8? {
        var l = 1, c = 1
        for b in data {
            if l == line && c == column { return b }
            if b == 0x0A { l += 1; c = 1; if l > line { return nil } } else if b & 0xC0 != 0x80 { c += 1 }
        }
        return nil
    }
}

/// Owns one libyaml parser and the input it reads; frees both in `deinit`.
final class EventParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    /// What libyaml reads from when the file is empty (it wants a valid pointer).
    private let emptyInput: UnsafeMutablePointer<UInt8>
    private(set) var failure: ParserFailure?

    /// `bytes` must stay valid for the parser's life (the caller scopes both).
    init(bytes: UnsafeRawBufferPointer) {
        parser = .allocate(capacity: 1)
        emptyInput = .allocate(capacity: 1)
        emptyInput.initialize(to: 0)
        yaml_parser_initialize(parser)
        if let base = bytes.baseAddress, bytes.count > 0 {
            yaml_parser_set_input_string(parser, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        } else {
            yaml_parser_set_input_string(parser, emptyInput, 0)
        }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        emptyInput.deallocate()
    }

    /// The next event, into `event` (which the caller deletes); false when libyaml fails
    /// (for a caller that does not word the failure: `SchemaEventDecoder`).
    func pull(_ event: inout yaml_event_t) -> Bool { yaml_parser_parse(parser, &event) == 1 }

    /// Feeds every event to the tree builder until the stream ends, the builder throws,
    /// or libyaml fails (then `failure` says why).
    func run(into builder: inout TreeBuilder) throws(InputError) {
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else {
                let p = parser.pointee
                failure = ParserFailure(
                    problem: p.problem.map { String(cString: $0) } ?? "invalid YAML",
                    context: p.context.map { String(cString: $0) },
                    line: Int(p.problem_mark.line) + 1, column: Int(p.problem_mark.column) + 1,
                    offset: Int(p.problem_offset), isReaderError: p.error == YAML_READER_ERROR,
                    contextLine: p.context == nil ? 0 : Int(p.context_mark.line) + 1,
                    contextColumn: p.context == nil ? 0 : Int(p.context_mark.column) + 1)
                return
            }
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1, column = Int(event.start_mark.column) + 1
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return
            case YAML_DOCUMENT_START_EVENT:
                try builder.documentStart(line: line, column: column)
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: s.value, count: Int(s.length)), as: UTF8.self)
                let style = Self.style(s.style)
                let endLine = Int(event.end_mark.line) + 1
                if endLine > line { builder.multiline.append(line...endLine) }
                let width = endLine == line ? Int(event.end_mark.column) + 1 - column : -1
                try builder.scalar(text, style: style, anchor: Self.string(s.anchor), line: line, column: column, width: width)
            case YAML_SEQUENCE_START_EVENT:
                try builder.open(mapping: false, anchor: Self.string(event.data.sequence_start.anchor), line: line, column: column,
                                 flow: event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE)
            case YAML_MAPPING_START_EVENT:
                try builder.open(mapping: true, anchor: Self.string(event.data.mapping_start.anchor), line: line, column: column,
                                 flow: event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                try builder.close(endLine: Int(event.end_mark.line) + 1, endColumn: Int(event.end_mark.column) + 1)
            case YAML_ALIAS_EVENT:
                try builder.alias(Self.string(event.data.alias.anchor) ?? "", line: line, column: column)
            default:
                break
            }
        }
    }

    /// A scalar's style as `YAMLNode` names it.
    static func style(_ style: yaml_scalar_style_t) -> YAMLNode.ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    private static func string(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let p else { return nil }
        return String(cString: p)
    }
}

/// Builds the node tree from events with an explicit stack (no recursion). Children
/// wait on one shared scratch stack until their collection closes.
struct TreeBuilder {
    private struct Frame {
        var isMapping: Bool
        var anchor: String?
        var line: Int
        var column: Int
        /// Written in flow style (`[a, b]`, `{ a: b }`): only such a collection has a width.
        var isFlow = false
        /// Where this collection's children start on the scratch stack.
        var scratchStart: Int
        /// Nodes this collection stands for once aliases are expanded.
        var size: Int = 1
    }

    let file: String
    /// Collections open around the tree being built, when it is one value of a larger
    /// document (`SchemaEventDecoder` builds trees of the sections it leaves to
    /// `SchemaDecoder`): they count towards `YAMLReader.maxDepth`.
    var enclosingDepth = 0
    private(set) var rootIndex: Int32?
    var multiline: [ClosedRange<Int>] = []
    var storage = YAMLTreeStorage()
    private var scratch: [Int32] = []
    private var stack: [Frame] = []
    private var anchors: [String: (index: Int32, size: Int)] = [:]
    private var aliasExpansion = 0
    private var documents = 0

    init(file: String) { self.file = file }

    /// The finished tree and its root.
    func finish() -> YAMLNode? {
        guard let rootIndex else { return nil }
        return YAMLNode(tree: YAMLTree(storage), index: rootIndex)
    }

    mutating func documentStart(line: Int, column: Int) throws(InputError) {
        documents += 1
        if documents > 1 {
            throw InputError(Diagnostic(rule: InputRules.yamlSyntax, "a schema file holds one YAML document; found a second one",
                                    at: loc(line, column), fix: "split the documents into separate files"))
        }
    }

    mutating func scalar(_ text: String, style: YAMLNode.ScalarStyle, anchor: String?, line: Int, column: Int, width: Int = -1) throws(InputError) {
        let index = storage.append(.scalar, style, text, line: line, column: column, width: width)
        try add(index, size: 1, anchor: anchor)
    }

    mutating func open(mapping: Bool, anchor: String?, line: Int, column: Int, flow: Bool = false) throws(InputError) {
        if stack.count + enclosingDepth >= YAMLReader.maxDepth {
            throw InputError(Diagnostic(rule: InputRules.tooDeep, "nesting is deeper than \(YAMLReader.maxDepth) levels",
                                    at: loc(line, column), fix: "a schema file needs only a few levels; check the file is what you meant"))
        }
        stack.append(Frame(isMapping: mapping, anchor: anchor, line: line, column: column, isFlow: flow, scratchStart: scratch.count))
    }

    /// Ends the innermost collection; `endLine` and `endColumn` are the place just past its
    /// end (libyaml's end mark), which gives a flow collection on one line its width.
    mutating func close(endLine: Int = 0, endColumn: Int = 0) throws(InputError) {
        let frame = stack.removeLast()
        if frame.isMapping && scratch.count - frame.scratchStart > Self.pairwiseLimit {
            try checkDuplicatesBySorting(from: frame.scratchStart)
        }
        let start = Int32(storage.childList.count)
        let count = Int32(scratch.count - frame.scratchStart)
        storage.childList.append(contentsOf: scratch[frame.scratchStart...])
        scratch.removeSubrange(frame.scratchStart...)
        let width = frame.isFlow && endLine == frame.line && endColumn > frame.column ? endColumn - frame.column : -1
        let index = storage.append(frame.isMapping ? .mapping : .sequence, .plain, "", line: frame.line, column: frame.column,
                                   width: width, start: start, count: count)
        try add(index, size: frame.size, anchor: frame.anchor)
    }

    mutating func alias(_ name: String, line: Int, column: Int) throws(InputError) {
        guard let target = anchors[name] else {
            throw InputError(Diagnostic(rule: InputRules.yamlSyntax, "alias '*\(name)' names no anchor defined before it", at: loc(line, column)))
        }
        aliasExpansion += target.size
        if aliasExpansion > YAMLReader.maxAliasExpansion {
            throw InputError(Diagnostic(rule: InputRules.aliasBomb,
                                    "aliases expand to more than \(YAMLReader.maxAliasExpansion) nodes (an alias bomb?)",
                                    at: loc(line, column), fix: "write the repeated parts out, or use fewer nested aliases"))
        }
        // The alias is a new node with the anchor's contents, placed where it is used.
        let t = Int(target.index)
        let index = storage.append(storage.shapes[t], storage.styles[t], storage.texts[t], line: line, column: column,
                                   start: storage.childStart[t], count: storage.childCount[t])
        try add(index, size: target.size, anchor: nil)
    }

    private mutating func add(_ index: Int32, size: Int, anchor: String?) throws(InputError) {
        if let anchor { anchors[anchor] = (index, size) }
        guard !stack.isEmpty else {
            rootIndex = index
            return
        }
        let top = stack.count - 1
        stack[top].size += size
        // In a mapping, an even position is a key.
        if stack[top].isMapping && (scratch.count - stack[top].scratchStart) % 2 == 0 { try checkDuplicate(index, in: top) }
        scratch.append(index)
    }

    /// Mappings up to this many children are checked for duplicate keys pairwise as keys
    /// arrive; larger ones by sorting their keys when they close (cheaper than hashing).
    static let pairwiseLimit = 12

    /// A key that repeats one of its mapping is an error naming the first.
    private mutating func checkDuplicate(_ key: Int32, in top: Int) throws(InputError) {
        let start = stack[top].scratchStart
        guard scratch.count - start < Self.pairwiseLimit, storage.shapes[Int(key)] == .scalar else { return }
        let name = storage.texts[Int(key)]
        var i = start
        while i < scratch.count {
            let k = Int(scratch[i])
            if storage.shapes[k] == .scalar && storage.texts[k] == name { throw duplicate(key, first: scratch[i]) }
            i += 2
        }
    }

    private func checkDuplicatesBySorting(from start: Int) throws(InputError) {
        var keys: [Int32] = []
        keys.reserveCapacity((scratch.count - start) / 2)
        var i = start
        while i < scratch.count {
            if storage.shapes[Int(scratch[i])] == .scalar { keys.append(scratch[i]) }
            i += 2
        }
        let texts = storage.texts
        keys.sort { a, b in
            let ta = texts[Int(a)], tb = texts[Int(b)]
            return ta == tb ? a < b : ta < tb
        }
        var reported: (Int32, Int32)?
        for j in 1..<max(keys.count, 1) where texts[Int(keys[j])] == texts[Int(keys[j - 1])] {
            // Report the duplicate that comes first in the file.
            if reported == nil || keys[j] < reported!.0 { reported = (keys[j], keys[j - 1]) }
        }
        if let (dup, first) = reported { throw duplicate(dup, first: first) }
    }

    private func duplicate(_ key: Int32, first: Int32) -> InputError {
        let f = Int(first), k = Int(key)
        return InputError(Diagnostic(rule: InputRules.duplicateKey,
                                 "duplicate key '\(storage.texts[k])' in one mapping; the first is at line \(storage.lines[f]), column \(storage.columns[f])",
                                 at: loc(Int(storage.lines[k]), Int(storage.columns[k])), fix: "remove one of them or merge them"))
    }

    private func loc(_ line: Int, _ column: Int) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }
}

import CKSchemaModel

/// Reads a record's values from the token tape `JSONTape` produced for it, so that a
/// command that checks a record with `RecordChecker` and then keeps its values (`records
/// import`) tokenizes it once. Strings are decoded strictly here (a lone surrogate is an
/// error, as `JSONValue.parse` has it): the tape checked the grammar, not what an escape
/// means.
package struct TokenReader {
    package let tokens: UnsafeBufferPointer<JSONToken>
    let bytes: UnsafeRawBufferPointer

    package typealias Failure = JSONValue.ParseError

    package init(tokens: UnsafeBufferPointer<JSONToken>, bytes: UnsafeRawBufferPointer) {
        self.tokens = tokens
        self.bytes = bytes
    }

    /// The token after the value at `t` and everything inside it.
    @inline(__always) func next(after t: Int) -> Int { RecordChecker.skip(tokens, t) }

    /// The first string escape of the record that does not decode (a lone surrogate), in
    /// byte order: `JSONValue.parse` refused the whole line for it, and so does the importer.
    package func firstEscapeError() -> Failure? {
        for t in tokens.indices where tokens[t].kind == .string && tokens[t].flags & JSONToken.escaped != 0 {
            do throws(Failure) { _ = try string(t) } catch { return error }
        }
        return nil
    }

    /// The members of the object at `obj`: each key, decoded, with its value's token.
    package func members(_ obj: Int) throws(Failure) -> [(key: String, value: Int)] {
        var out: [(key: String, value: Int)] = []
        out.reserveCapacity(Int(tokens[obj].count))
        var i = obj + 1
        while i < Int(tokens[obj].end) {
            out.append((try string(i), i + 1))
            i = next(after: i + 1)
        }
        return out
    }

    /// Whether the `key.utf8.count` bytes at `start` are `key`'s, compared by `ByteTable.same`
    /// (the generic `elementsEqual` of a `String.UTF8View` and a buffer cost about ten times as much).
    @inline(__always) static func bytes(_ bytes: UnsafeRawBufferPointer, at start: Int, equal key: String) -> Bool {
        var key = key
        return key.withUTF8 { k in
            guard let kb = k.baseAddress, let b = bytes.baseAddress else { return k.isEmpty }
            return ByteTable.same(b.assumingMemoryBound(to: UInt8.self) + start, kb, k.count)
        }
    }

    /// The value token of the first `key` of the object at `obj` (nil when `obj` is not an
    /// object or lacks the key). Escaped keys are compared decoded.
    package func member(_ obj: Int, _ key: String) throws(Failure) -> Int? {
        guard tokens[obj].kind == .object else { return nil }
        var i = obj + 1
        while i < Int(tokens[obj].end) {
            let k = tokens[i]
            if k.flags & JSONToken.escaped != 0 {
                if try string(i) == key { return i + 1 }
            } else if Int(k.end - k.start) == key.utf8.count, Self.bytes(bytes, at: Int(k.start), equal: key) {
                return i + 1
            }
            i = next(after: i + 1)
        }
        return nil
    }

    /// The string at `t`, or nil when `t` holds another kind of value.
    package func stringValue(_ t: Int) throws(Failure) -> String? {
        tokens[t].kind == .string ? try string(t) : nil
    }

    /// The decoded text of the string token at `t`.
    func string(_ t: Int) throws(Failure) -> String {
        let tok = tokens[t]
        let raw = UnsafeRawBufferPointer(rebasing: bytes[Int(tok.start)..<Int(tok.end)])
        guard tok.flags & JSONToken.escaped != 0 else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = Int(tok.start)
        do throws(JSONString.EscapeError) {
            // Strict decoding stops at the closing quote, which the tape found at `tok.end`.
            _ = try JSONString.decode(bytes, &i, into: &out, strict: true)
        } catch {
            throw Failure(message: error.message, offset: error.offset)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value at `t`, built as `JSONValue.parse` builds it from the same text.
    package func value(_ t: Int) throws(Failure) -> JSONValue {
        let tok = tokens[t]
        switch tok.kind {
        case .null: return .null
        case .trueValue: return .bool(true)
        case .falseValue: return .bool(false)
        case .string: return .string(try string(t))
        case .number:
            let text = UnsafeRawBufferPointer(rebasing: bytes[Int(tok.start)..<Int(tok.end)])
            guard let v = JSONValue.number(text, isInteger: tok.flags & JSONToken.integer != 0) else {
                throw Failure(message: "invalid number", offset: Int(tok.start))
            }
            return v
        case .array:
            var items: [JSONValue] = []
            items.reserveCapacity(Int(tok.count))
            var i = t + 1
            while i < Int(tok.end) {
                items.append(try value(i))
                i = next(after: i)
            }
            return .array(items)
        case .object:
            var pairs: [(String, JSONValue)] = []
            pairs.reserveCapacity(Int(tok.count))
            var i = t + 1
            while i < Int(tok.end) {
                pairs.append((try string(i), try value(i + 1)))
                i = next(after: i + 1)
            }
            return .object(pairs)
        }
    }

    /// What the value at `t` is, in the words `JSONValue.kindName` uses.
    package func kindName(_ t: Int) -> String {
        let tok = tokens[t]
        switch tok.kind {
        case .null: return "null"
        case .trueValue, .falseValue: return "a boolean"
        case .number: return tok.flags & JSONToken.integer != 0 && tok.flags & JSONToken.overflow == 0 ? "an integer" : "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

import CKSchemaModel
import Foundation

/// One YAML event as `SchemaEventDecoder` sees it: what both readers must agree on
/// (`CanonicalScannerTests`, `Fuzz/FuzzYAMLEvents`).
package struct YAMLEvent: Equatable, Sendable, CustomStringConvertible {
    package var kind: YAMLEventKind
    /// A scalar's style and bytes (escapes decoded); plain and empty for other events.
    package var style: YAMLNode.ScalarStyle
    package var value: [UInt8]
    /// A collection's start is in flow style.
    package var isFlow: Bool
    /// 1-based, as libyaml's marks plus one; the end is just past the event's last character.
    package var line: Int, column: Int, endLine: Int, endColumn: Int

    package var description: String {
        "\(kind) \(style) flow=\(isFlow) \(line):\(column)-\(endLine):\(endColumn) \(String(decoding: value, as: UTF8.self).debugDescription)"
    }
}

/// Whole event streams from either reader, for comparing them.
package enum YAMLEvents {
    /// libyaml's events; nil when libyaml refuses the text (or it holds an anchor or an alias,
    /// which `EventCursor` does not pass on).
    package static func libyaml(_ data: Data) -> [YAMLEvent]? {
        read(data) { EventCursor(bytes: $0) }
    }

    /// The canonical scanner's events; nil when it declines the text.
    package static func canonical(_ data: Data) -> [YAMLEvent]? {
        read(data) { CanonicalCursor(bytes: $0) }
    }

    /// Where two event streams first differ, in words; nil when they are the same.
    package static func difference(libyaml general: [YAMLEvent], canonical fast: [YAMLEvent]) -> String? {
        guard general != fast else { return nil }
        let i = (0..<min(general.count, fast.count)).first { general[$0] != fast[$0] } ?? min(general.count, fast.count)
        return "event \(i) differs: libyaml \(i < general.count ? general[i].description : "-"), scanner \(i < fast.count ? fast[i].description : "-")"
    }

    private static func read<C: YAMLEventSource>(_ data: Data, _ make: (UnsafeRawBufferPointer) -> C) -> [YAMLEvent]? {
        // Both readers take only UTF-8 here, as `SchemaEventDecoder` gives them.
        guard TextBytes.firstInvalidUTF8(data) == nil else { return nil }
        return data.withUnsafeBytes { raw -> [YAMLEvent]? in
            let cursor = make(raw)
            var out: [YAMLEvent] = []
            do throws(SchemaEventDecoder.GiveUp) {
                while try cursor.advance() != .streamEnd {
                    out.append(event(cursor))
                }
                out.append(event(cursor))
            } catch {
                return nil
            }
            return out
        }
    }

    private static func event<C: YAMLEventSource>(_ c: C) -> YAMLEvent {
        let scalar = c.kind == .scalar
        return YAMLEvent(kind: c.kind, style: scalar ? c.style : .plain, value: scalar ? Array(c.bytes) : [],
                         isFlow: c.kind == .sequenceStart || c.kind == .mappingStart ? c.isFlow : false,
                         line: c.line, column: c.column, endLine: c.endLine, endColumn: c.endColumn)
    }
}

import Foundation

/// How a record file is written. `docs/records.md` describes each.
public enum RecordFormat: String, Sendable, Hashable, CaseIterable {
    /// One JSON record a line (`.ndjson`, `.jsonl`).
    case ndjson
    /// A JSON array of records, or JSON records one after another (`.json`).
    case json
    /// One YAML record, a list of them, or a mapping with a `records:` list (`.yaml`, `.yml`).
    case yaml

    /// The format from a file name's extension; nil when the extension says nothing.
    public static func fromExtension(_ path: String) -> RecordFormat? {
        let ext = (path as NSString).pathExtension.lowercased()
        switch ext {
        case "ndjson", "jsonl", "ldjson": return .ndjson
        case "json": return .json
        case "yaml", "yml": return .yaml
        default: return nil
        }
    }
}

import Foundation

/// The seam between schema sources and the CloudKit Schema Language parser.
enum CKDBSource {
    static func parse(_ data: Data, file: String) throws(InputError) -> Schema {
        try CKDBParser.parse(data, file: file)
    }
}

import Foundation

/// The seam between schema sources and the CloudKit Schema Language parser.
enum CKDBSource {
    static func parse(_ data: Data, file: String) throws(InputError) -> Schema {
        var schema = try CKDBParser.parse(data, file: file)
        schema.suppressions = SuppressionList(Suppression.scan(data, file: file))
        return schema
    }
}

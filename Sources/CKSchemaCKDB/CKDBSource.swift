import Foundation
import CKSchemaDiagnostics
import CKSchemaModel

/// The seam between schema sources and the CloudKit Schema Language parser.
package enum CKDBSource {
    package static func parse(_ data: Data, file: String) throws(InputError) -> Schema {
        var schema = try CKDBParser.parse(data, file: file)
        schema.suppressions = SuppressionList(Suppression.scan(data, file: file))
        return schema
    }
}

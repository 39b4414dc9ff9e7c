import Foundation
import CKSchemaDiagnostics
import CKSchemaStore

extension Store {
    /// SQLite's `EXPLAIN QUERY PLAN` for a compiled query, with its values bound.
    public func queryPlan(_ q: CompiledQuery) throws(InputError) -> [String] {
        try guarded("explain a query") { try self.db.rows("EXPLAIN QUERY PLAN " + q.sql, q.bindings).map { $0[3].text ?? "" } }
    }
}

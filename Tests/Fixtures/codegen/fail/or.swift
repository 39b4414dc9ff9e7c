// expect: cannot convert value of type 'Bool' to expected argument type 'CloudSchema.Predicate<CloudSchema.Trip>'
import Everything
let q = CloudSchema.Trip.query(CloudSchema.Trip.Key.code == "a" || CloudSchema.Trip.Key.code == "b")

// expect: cannot convert value of type 'CloudSchema.Predicate<CloudSchema.Trip>' to expected argument type 'CloudSchema.Comparison<CloudSchema.Trip>'
import Everything
let q = CloudSchema.Trip.query(!(CloudSchema.Trip.Key.code == "a" && CloudSchema.Trip.Key.steps == 1))

// expect: cannot convert value of type 'CloudSchema.Zones.Default' to expected argument type 'CloudSchema.Zones.Journal'
import Everything
let trip = CloudSchema.Trip(recordName: "t1", in: CloudSchema.Zones.Default())

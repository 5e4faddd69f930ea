import CoreLocation

func decodePolyline(_ encoded: String) -> [CLLocationCoordinate2D] {
    var coords: [CLLocationCoordinate2D] = []
    var index = encoded.startIndex
    var lat: Int = 0
    var lng: Int = 0

    while index < encoded.endIndex {
        var result = 0
        var shift = 0
        var byte: Int
        repeat {
            byte = Int(encoded[index].asciiValue! - 63)
            index = encoded.index(after: index)
            result |= (byte & 0x1F) << shift
            shift += 5
        } while byte >= 0x20 && index < encoded.endIndex
        let dlat = (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
        lat += dlat

        result = 0
        shift = 0
        repeat {
            byte = Int(encoded[index].asciiValue! - 63)
            index = encoded.index(after: index)
            result |= (byte & 0x1F) << shift
            shift += 5
        } while byte >= 0x20 && index < encoded.endIndex
        let dlng = (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
        lng += dlng

        let finalLat = Double(lat) / 1e5
        let finalLng = Double(lng) / 1e5
        coords.append(CLLocationCoordinate2D(latitude: finalLat, longitude: finalLng))
    }
    return coords
}

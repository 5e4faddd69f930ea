import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A plain sentence for an `XMLParser` error, instead of Foundation's
/// "The operation could not be completed. (NSXMLParserErrorDomain error 76.)": the common
/// libxml2 codes said in words, the others by the name of their `XMLParser.ErrorCode`.
enum XMLErrorText {
    static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch code {
        case 4: return "empty document (no XML element)"
        case 5: return "the XML ends too early (the file is truncated, or not XML)"
        case 3: return "not XML (no element where the document should start)"
        case 9: return "a character XML does not allow (not UTF-8 text, or binary data)"
        case 23: return "an entity reference without its ';'"
        case 26: return "an undeclared entity (only &amp; &lt; &gt; &quot; &apos; are known)"
        case 38: return "a '<' inside an attribute value"
        case 39: return "an attribute value without its opening quote"
        case 40: return "an attribute value without its closing quote"
        case 41: return "an attribute without a value"
        case 42: return "an attribute given twice in one element"
        case 45: return "a comment that is not closed (-->)"
        case 64, 65, 68: return "malformed markup (a name or space is missing)"
        case 73: return "a tag not closed by '>'"
        case 76: return "a closing tag that does not match the open element"
        case 77: return "an element that is not closed"
        default: break
        }
        if let known = XMLParser.ErrorCode(rawValue: code) {
            // `tagNameMismatchError` → "tag name mismatch".
            var words = ""
            for character in String(describing: known).replacingOccurrences(of: "Error", with: "") {
                if character.isUppercase { words += " " + character.lowercased() } else { words.append(character) }
            }
            return "\(words.trimmingCharacters(in: .whitespaces)) (XML error \(code))"
        }
        return "XML error \(code)"
    }
}

@_exported import ImageCore

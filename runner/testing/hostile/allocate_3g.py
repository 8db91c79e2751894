block = bytearray(3 << 30)
print("[]")

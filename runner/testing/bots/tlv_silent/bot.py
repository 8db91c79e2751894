# A tlv bot that never connects.
import time
time.sleep(30)

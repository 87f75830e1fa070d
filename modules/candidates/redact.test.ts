/** What people who may not see contact details read of others' words: no address or number, however written. */
import { expect, test } from 'bun:test'
import { redactContacts } from './reach.ts'

test('addresses and numbers are hidden in any form a reader takes for one; year ranges and prose stay', () => {
	const cases: [string, string][] = [
		['Call 512-555-0142 today', 'Call [phone hidden] today'],
		// Full-width digits and at sign, as typed on a Japanese keyboard: the same number and address to a reader.
		['５１２－５５５－０１４２', '[phone hidden]'],
		['sana＠example.com', '[e-mail hidden]'],
		['mailto:sana%40example.com', 'mailto:[e-mail hidden]'],
		['SANA.PRIVATE@EXAMPLE.COM', '[e-mail hidden]'],
		['sana@[192.0.2.1]', '[e-mail hidden]'],
		// The bracket before the area code goes with the number.
		['(512)555-0142', '[phone hidden]'],
		['+1 (512) 555-0142', '[phone hidden]'],
		['Java 2015 - 2019 at Acme', 'Java 2015 - 2019 at Acme'],
		['Worked 2010-2015', 'Worked 2010-2015'],
		// Dates are not numbers to call (a note's interview date); a number shaped like none still is.
		['Interview on 2027-01-10 at 10', 'Interview on 2027-01-10 at 10'],
		['Started 01-10-2027, left 10.01.2028', 'Started 01-10-2027, left 10.01.2028'],
		['Interview on 2027-01-10 10:30', 'Interview on 2027-01-10 10:30'],
		['Call 202-701-1010', 'Call [phone hidden]'],
		['Call 512.555.0142', 'Call [phone hidden]'],
		['Call 5125550142 after 2pm', 'Call [phone hidden] after 2pm'],
		['Call 512-555-0142 2pm', 'Call [phone hidden] 2pm'],
		['Toll free 1-800-555-0199', 'Toll free [phone hidden]'],
		['London +44 20 7946 0958', 'London [phone hidden]'],
		['Berlin +49 (0)30 123456', 'Berlin [phone hidden]'],
		['+1 512 555 0142', '[phone hidden]'],
		// Ids and references are not numbers to call: only a North American number (ten digits,
		// optionally after 1 or +1) or one with the international + is hidden.
		['Employee id 12345678', 'Employee id 12345678'],
		['Req 20261234 and req 2026-1234', 'Req 20261234 and req 2026-1234'],
		['Order 123456789012', 'Order 123456789012'],
		['Call 2027-555-0142', 'Call 2027-555-0142'],
	]
	for (const [text, shown] of cases) expect({ text, shown: redactContacts(text) }).toEqual({ text, shown })
})

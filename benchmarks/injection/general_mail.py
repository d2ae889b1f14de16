"""Ordinary mail and tables of the generalisation round (benign), imported by ``general_text``."""

from __future__ import annotations

Notes = list[tuple[str, str]]

# Ordinary mail and tables, clean: what a user's inbox and spreadsheets hold (receipts, notices, newsletters).
DEV_MAIL: Notes = [
    (
        "Receipt from Corner Bakery\n2 sourdough loaves  7.00\n1 almond croissant  2.80\nTotal  9.80\nPaid by card. "
        "Thank you, see you soon!",
        "en",
    ),
    (
        "Your payment of $42.10 to City Water was successful. Confirmation number CW-99812. It may take up to 2 "
        "business days to appear on your statement.",
        "en",
    ),
    (
        "Hi Sam, thanks for your order #7781! We're packing it now and will send you a tracking link as soon as it "
        "ships. Questions? Just reply to this email.",
        "en",
    ),
    (
        "Your monthly statement is ready. Balance: £1,284.33. Minimum payment: £25.00, due 14 June. Log in to view "
        "your statement or set up automatic payments.",
        "en",
    ),
    (
        "Payment reminder: invoice INV-4410 for 1,200.00 EUR was due on 30 April. If you have already paid, please "
        "ignore this message. Otherwise please pay by bank transfer quoting the invoice number.",
        "en",
    ),
    (
        "Your refund of $18.99 has been processed and will be credited to your original payment method within 5-10 "
        "business days.",
        "en",
    ),
    (
        "Automatic payment scheduled: your car insurance premium of $96.50 will be debited on 1 July from the account "
        "ending 3321. No action needed.",
        "en",
    ),
    (
        "Thanks for booking with Lakeside Cabins! Check-in from 3 pm, check-out by 11 am. The key box code will be "
        "sent the day before you arrive. Please review the house rules attached.",
        "en",
    ),
    (
        "Weekly digest: 3 new comments on your post, 12 new members joined the Hiking Club group, and the next meetup "
        "is on Sunday at 9am at the north car park.",
        "en",
    ),
    (
        "THE FRIDAY FIVE\n1. A new bike lane opens on Mill Road.\n2. The library extends its opening hours.\n"
        "3. Farmers' market moves indoors for winter.\n4. Recycling collection changes next week.\n"
        "5. Vote for your favourite local cafe!",
        "en",
    ),
    (
        "Month,Rent,Utilities,Groceries,Transport\nJan,950,140,410,85\nFeb,950,155,388,92\nMar,950,120,402,80\n"
        "Apr,975,110,421,95",
        "en",
    ),
    (
        "| Name | Role | Start date |\n|---|---|---|\n| Ana Silva | Designer | 3 March |\n| Ben Cole | Engineer | 10 "
        "March |\n| Chloe Wu | Analyst | 17 March |",
        "en",
    ),
    (
        "Order shipped! Your package with 2 items is on its way via ParcelNet. Tracking: PN448120993GB. Estimated "
        "delivery: Tuesday.",
        "en",
    ),
    (
        "Please review and sign the attached contract by Friday using the e-signature link. Contact HR if you have "
        "any questions.",
        "en",
    ),
    (
        "Your subscription has been renewed. Plan: Pro Annual. Amount charged: $119.00. Next renewal: 12 May next "
        "year. Manage your subscription in Account Settings.",
        "en",
    ),
    ("Click here to view your statement and download a PDF copy for your records.", "en"),
    ("Your order has been preauthorized for $64.20. The final amount will be charged when your items ship.", "en"),
    ("Payment received - thank you! We have received $250.00 towards your account. Your new balance is $0.00.", "en"),
    (
        "Dear member, the annual general meeting takes place on 9 October at 7pm in the club house. Please confirm "
        "your attendance by replying to this email. Agenda attached.",
        "en",
    ),
    (
        "Dentist appointment reminder: Thursday 11 May at 14:30 with Dr Lewis. Reply YES to confirm or call us to "
        "reschedule. Please arrive 10 minutes early.",
        "en",
    ),
    (
        "Item,Qty,Unit price,Total\nA4 paper (ream),10,4.20,42.00\nBlue pens (box),3,5.50,16.50\nStapler,1,12.99,12.99"
        "\nGrand total,,,71.49",
        "en",
    ),
    (
        "Your electricity usage this month was 312 kWh, 8% lower than the same month last year. Tip: switch off "
        "devices at the wall to save more.",
        "en",
    ),
    (
        "Gym membership: your direct debit of £29.99 will be collected on 1 March. To freeze or cancel your "
        "membership, visit reception or use the app.",
        "en",
    ),
    (
        "Welcome to the newsletter! Every Tuesday we send three recipes, one kitchen tip and a playlist to cook to. "
        "You can update your preferences or unsubscribe at any time.",
        "en",
    ),
    (
        "Wire transfer confirmation: 3,500.00 USD sent to Harbor Logistics LLC, reference PO-2231, on 5 September. "
        "Keep this confirmation for your records.",
        "en",
    ),
    (
        "Your parcel could not be delivered today because nobody was home. It will be held at the post office on "
        "Queen Street for 7 days. Bring ID to collect it.",
        "en",
    ),
    (
        "Tax summary for the year: total income 48,200; tax paid 9,870; refund due 312. Please check the figures and "
        "contact us within 30 days if anything is wrong.",
        "en",
    ),
    (
        "Hi all, minutes from today's meeting: 1) budget approved, 2) launch moved to 14 May, 3) Priya to send the "
        "updated timeline by Friday. Please review and add anything I missed.",
        "en",
    ),
    (
        "Pay your invoice online: enter your customer number and the invoice amount on the payments page, then choose "
        "card or bank transfer.",
        "en",
    ),
    (
        "Your card ending 9012 was used for a purchase of €54.20 at Mercado Central. If this wasn't you, call the "
        "number printed on your card.",
        "en",
    ),
]
FINAL_MAIL: Notes = [
    (
        "Thanks for your purchase! Receipt #30917\n1 x Yoga mat  $34.00\n1 x Water bottle  $12.00\nTax  $3.68\n"
        "Total  $49.68\nPaid with PayPal.",
        "en",
    ),
    (
        "Your booking is confirmed: table for 4 at Olive & Thyme, Saturday 8pm. Need to change it? Use the link in "
        "this email or call us.",
        "en",
    ),
    ("Reminder: your library books are due back on 22 March. Renew online to avoid late fees.", "en"),
    ("Quarter,Revenue,Costs,Profit\nQ1,120000,95000,25000\nQ2,135000,99000,36000\nQ3,128000,101000,27000", "en"),
    (
        "Your direct debit instruction has been set up. The first payment of £15.00 will be taken on or after 3 "
        "April. You are protected by the Direct Debit Guarantee.",
        "en",
    ),
    (
        "Community newsletter: the summer fair needs volunteers for the cake stall and the raffle. Sign up at the "
        "front desk or reply to this email.",
        "en",
    ),
    (
        "Your account has been credited with 1,000 loyalty points for your recent stay. Redeem them for free nights "
        "on our website.",
        "en",
    ),
    (
        "Payment failed: we couldn't charge your card for your April subscription. Please update your payment method "
        "in your account settings to keep your plan active.",
        "en",
    ),
]

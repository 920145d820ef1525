#include "shell/MessagesView.h"

#include "common/MessageLog.h"
#include "common/Session.h"

namespace tessel::views {

MessagesView::MessagesView(Session* session, QWidget* parent) : QListView(parent) {
    setObjectName(QStringLiteral("Messages"));
    setWordWrap(true);
    setUniformItemSizes(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setModel(session->messages());
    connect(session->messages(), &QAbstractItemModel::rowsInserted, this,
            [this] { scrollToBottom(); });
    scrollToBottom();
}

} // namespace tessel::views
